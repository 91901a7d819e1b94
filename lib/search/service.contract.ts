// A recipient substring search takes one of several paths (service.ts): its rare candidates looked up
// first, a window of the next credentials probed, or, when the probe falls short, the indexed query
// (with the candidates counted again on PostgreSQL). Thresholds set small here take each path with a few
// rows, and every path must walk the same pages as a plain evaluation of the filter. Run on SQLite
// (service.test.ts) and PostgreSQL (service.postgres.test.ts).
import { expect, it } from "vitest";
import type { Caller } from "../organizations/service";
import { normalizeName } from "../recipients/service";
import { SearchCredentialsBody } from "./schema";
import type { SearchTuning } from "./service";

type Organization = Caller["organization"];
type Made = { id: string; createdAt: string; name: string; email: string };

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

export function searchPathsContract(subject: () => {
  organization: Organization;
  create: (recipient: { name: string; email: string }) => Promise<{ id: string; createdAt: string }>;
  search: typeof import("./service").searchCredentials;
}) {
  const made: Made[] = [];

  async function walk(filter: Record<string, unknown>, order: "asc" | "desc", tuning: SearchTuning | undefined): Promise<string[]> {
    const { organization, search } = subject();
    const ids: string[] = [];
    let page = await search(organization, SearchCredentialsBody.parse({ filter, sort: { property: "createdAt", order }, limit: 7 }), tuning);
    ids.push(...page.data.map((c) => c.id));
    while (page.pagination.next) {
      page = await search(organization, SearchCredentialsBody.parse({ cursor: page.pagination.next, limit: 7 }), tuning);
      ids.push(...page.data.map((c) => c.id));
    }
    return ids;
  }

  it("every path walks the pages a plain evaluation of the filter gives", async () => {
    const { create } = subject();
    for (let i = 0; i < 90; i++) {
      const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
      // Some recipients get several credentials, so recipients and credentials differ in number.
      const email = `${name.split(" ")[0]!.toLowerCase()}.${i % 60}@${DOMAINS[i % DOMAINS.length]}`;
      const credential = await create({ name, email });
      made.push({ ...credential, name: made.find((m) => m.email === email)?.name ?? name, email });
    }
    const byKey = (order: "asc" | "desc") => (a: Made, b: Made) => {
      const key = a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;
      return order === "asc" ? key : -key;
    };
    let nonEmpty = 0;
    for (const filter of FILTERS) {
      for (const order of ["desc", "asc"] as const) {
        const expected = made.filter((m) => matches(m, filter)).sort(byKey(order)).map((m) => m.id);
        if (expected.length) nonEmpty++;
        for (const [path, tuning] of TUNINGS) {
          expect(await walk(filter, order, tuning), `${JSON.stringify(filter)} ${order}, ${path}`).toEqual(expected);
        }
      }
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(16);
  });
}
