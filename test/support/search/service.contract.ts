// A recipient substring search takes one of several paths (lib/search/service.ts): its rare candidates looked up
// first, a window of the next credentials probed, or, when the probe falls short, the indexed query
// (with the candidates counted again on PostgreSQL). Thresholds set small here take each path with a few
// rows, and every path must walk the same pages, forward and back, in every order including the
// nullable expiryDate's, as a plain evaluation of the filter over this organization's credentials
// (another organization holds the same people). Run on SQLite (service.test.ts) and PostgreSQL
// (service.postgres.test.ts).
import { expect, it } from "vitest";
import type { Caller } from "../../../lib/organizations/service";
import { normalizeName } from "../../../lib/recipients/service";
import { SearchCredentialsBody } from "../../../lib/search/schema";
import type { SearchTuning } from "../../../lib/search/service";

type Organization = Caller["organization"];
type Made = { id: string; createdAt: string; expiryDate: string | null; name: string; email: string };
type Sort = { property: "createdAt" | "expiryDate"; order: "asc" | "desc" };
const SORTS: Sort[] = [
  { property: "createdAt", order: "desc" },
  { property: "createdAt", order: "asc" },
  { property: "expiryDate", order: "asc" },
  { property: "expiryDate", order: "desc" },
];

const FIRST = ["Anna", "Mārtiņš", "Zoë", "王", "佐藤", "Søren", "Mia", "Olga", "José", "Ana"];
const LAST = ["Müller", "田中", "Kowalska", "Lee", "Nguyễn", "Østergaard", "Smith", "Tanaka", "Li", "Møller"];
const DOMAINS = ["uni.example", "mail.example", "qq.example"];

const TUNINGS: [string, SearchTuning | undefined][] = [
  ["default thresholds", undefined],
  ["candidates looked up first", { probeWindow: 3000, quickCount: 1e6, rareCandidates: 1e6 }],
  ["the probe answers", { probeWindow: 1e6, quickCount: 0, rareCandidates: 0 }],
  ["the probe falls short, then the indexed query", { probeWindow: 2, quickCount: 0, rareCandidates: 0 }],
  ["the probe falls short, then the candidates counted again", { probeWindow: 2, quickCount: 0, rareCandidates: 1e6 }],
];

type Text = { contains?: string; startsWith?: string; endsWith?: string };
const FILTERS: Record<string, unknown>[] = [
  { "recipient.name": { contains: "田" } },
  { "recipient.name": { contains: "田中" } },
  { "recipient.name": { contains: "AN" } },
  { "recipient.name": { contains: "ø" } },
  { "recipient.name": { contains: "ller" } },
  { "recipient.name": { contains: "zz" } },
  { "recipient.name": { startsWith: "ma" } },
  { "recipient.name": { endsWith: "i" } },
  { "recipient.email": { endsWith: "@qq.example" } },
  { "recipient.email": { contains: "a.m" } },
  { "recipient.name": { contains: "a" }, "recipient.email": { contains: "uni" } },
  { OR: [{ "recipient.name": { contains: "mü" } }, { "recipient.email": { startsWith: "li" } }] },
];

function matches(made: Made, filter: Record<string, unknown>): boolean {
  if ("OR" in filter) return (filter.OR as Record<string, unknown>[]).some((f) => matches(made, f));
  return Object.entries(filter).every(([field, ops]) => {
    const value = field === "recipient.name" ? normalizeName(made.name) : made.email.toLowerCase();
    const { contains, startsWith, endsWith } = ops as Text;
    if (contains !== undefined) return value.includes(normalizeName(contains));
    if (startsWith !== undefined) return value.startsWith(normalizeName(startsWith));
    return value.endsWith(normalizeName(endsWith!));
  });
}

export type SearchPathsSubject = {
  organization: Organization;
  /** Creates a credential in `organization` (or, with `elsewhere`, in another organization). */
  create: (
    input: { recipient: { name: string; email: string }; expiryDate?: string },
    elsewhere?: boolean,
  ) => Promise<{ id: string; createdAt: string; expiryDate: string | null }>;
  search: typeof import("../../../lib/search/service").searchCredentials;
};

/** Two organizations with a template each, on the database already set up (import the services only now). */
export async function makeSearchPathsSubject(): Promise<SearchPathsSubject> {
  const { createOrganization } = await import("../../../lib/organizations/service");
  const { createDesign } = await import("../../../lib/designs/service");
  const { createGroup } = await import("../../../lib/groups/service");
  const { createCredential } = await import("../../../lib/credentials/service");
  const { searchCredentials } = await import("../../../lib/search/service");
  const templateOf = async (organization: Awaited<ReturnType<typeof createOrganization>>) => {
    const design = await createDesign(organization, { name: "D", type: "certificate" });
    return (await createGroup(organization.id, { name: "Course", designIds: [design.id] })).id;
  };
  const organization = await createOrganization({ slug: "search-paths" });
  const other = await createOrganization({ slug: "search-paths-other" });
  const [groupId, otherGroupId] = [await templateOf(organization), await templateOf(other)];
  return {
    organization,
    search: searchCredentials,
    create: (input, elsewhere) =>
      elsewhere ? createCredential(other, { groupId: otherGroupId, ...input }) : createCredential(organization, { groupId, ...input }),
  };
}

export function searchPathsContract(subject: () => SearchPathsSubject) {
  const made: Made[] = [];

  /** Every page forward, then back from the last page through `prev`: both must list the same credentials. */
  async function walk(filter: Record<string, unknown>, sort: Sort, tuning: SearchTuning | undefined): Promise<string[]> {
    const { organization, search } = subject();
    const ids: string[] = [];
    let page = await search(organization, SearchCredentialsBody.parse({ filter, sort, limit: 7 }), tuning);
    ids.push(...page.data.map((c) => c.id));
    while (page.pagination.next) {
      page = await search(organization, SearchCredentialsBody.parse({ cursor: page.pagination.next, limit: 7 }), tuning);
      ids.push(...page.data.map((c) => c.id));
    }
    const back: string[] = [...page.data.map((c) => c.id)].reverse();
    while (page.pagination.prev) {
      page = await search(organization, SearchCredentialsBody.parse({ cursor: page.pagination.prev, limit: 7 }), tuning);
      back.push(...[...page.data.map((c) => c.id)].reverse());
    }
    expect(back.reverse(), `${JSON.stringify(filter)} ${sort.property} ${sort.order}: walking back`).toEqual(ids);
    return ids;
  }

  it("every path walks the pages a plain evaluation of the filter gives", async () => {
    const { create } = subject();
    for (let i = 0; i < 90; i++) {
      const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
      // Some recipients get several credentials, so recipients and credentials differ in number.
      const email = `${name.split(" ")[0]!.toLowerCase()}.${i % 60}@${DOMAINS[i % DOMAINS.length]}`;
      // Expiry dates with ties, and none on a third (the nullable sort's second segment).
      const expiryDate = i % 3 === 0 ? undefined : `2030-01-${String(1 + (i % 5)).padStart(2, "0")}`;
      const credential = await create({ recipient: { name, email }, ...(expiryDate ? { expiryDate } : {}) });
      made.push({ ...credential, name: made.find((m) => m.email === email)?.name ?? name, email });
      // The same people in another organization: none of its credentials may appear.
      if (i % 4 === 0) await create({ recipient: { name, email } }, true);
    }
    const byKey = (sort: Sort) => (a: Made, b: Made) => {
      const [x, y] = [a[sort.property], b[sort.property]];
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1; // nulls last in either order
      } else if (x !== y) return (x < y ? -1 : 1) * (sort.order === "asc" ? 1 : -1);
      return (a.id < b.id ? -1 : 1) * (sort.order === "asc" ? 1 : -1);
    };
    let nonEmpty = 0;
    for (const filter of FILTERS) {
      for (const sort of SORTS) {
        const expected = made
          .filter((m) => matches(m, filter))
          .sort(byKey(sort))
          .map((m) => m.id);
        if (expected.length) nonEmpty++;
        for (const [path, tuning] of TUNINGS) {
          expect(await walk(filter, sort, tuning), `${JSON.stringify(filter)} ${sort.property} ${sort.order}, ${path}`).toEqual(expected);
        }
      }
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(32);
  });
}
