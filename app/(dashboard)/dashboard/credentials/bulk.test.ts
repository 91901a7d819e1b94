import { describe, expect, it } from "vitest";
import { scratchDatabase } from "@/test/support/db/scratch-database";

await scratchDatabase("bulk");

const { db } = await import("@/lib/db");
const { ApiError } = await import("@/lib/core/errors");
const { createOrganization } = await import("@/lib/organizations/service");
const { createDesign } = await import("@/lib/designs/service");
const { createGroup } = await import("@/lib/groups/service");
const credentials = await import("@/lib/credentials/service");
const { applyToCredentials, readBulkRequest, summarize, BULK_MAX } = await import("./bulk");

type Org = Awaited<ReturnType<typeof createOrganization>>;

async function orgWithGroup(slug: string, plan: "free" | "premium", quota?: number): Promise<{ org: Org; groupId: string }> {
  let org = await createOrganization({ slug, plan });
  if (quota !== undefined) org = await db().organization.update({ where: { id: org.id }, data: { monthlyIssueQuota: quota } });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
  return { org, groupId: group.id };
}

const form = (entries: [string, string | Blob][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

function validationMessage(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError && error.code === "validation_error") return error.details?.[0]?.message ?? error.message;
    throw error;
  }
  throw new Error("no validation error");
}

describe("the bulk form", () => {
  it("takes an intent and distinct, trimmed ids", () => {
    expect(
      readBulkRequest(
        form([
          ["intent", "send"],
          ["id", " a "],
          ["id", "b"],
          ["id", "a"],
          ["id", ""],
        ]),
      ),
    ).toEqual({ intent: "send", ids: ["a", "b"] });
  });
  it("refuses an unknown intent, no ids, files, overlong ids and more than a page", () => {
    expect(
      validationMessage(() =>
        readBulkRequest(
          form([
            ["intent", "delete"],
            ["id", "a"],
          ]),
        ),
      ),
    ).toBe('must be "issue" or "send"');
    expect(validationMessage(() => readBulkRequest(form([["intent", "issue"]])))).toBe("Select at least one credential.");
    expect(
      validationMessage(() =>
        readBulkRequest(
          form([
            ["intent", "issue"],
            ["id", new Blob(["x"])],
          ]),
        ),
      ),
    ).toBe("must be credential ids, not files");
    expect(
      validationMessage(() =>
        readBulkRequest(
          form([
            ["intent", "issue"],
            ["id", "x".repeat(201)],
          ]),
        ),
      ),
    ).toMatch(/not a credential id/);
    const many = Array.from({ length: BULK_MAX + 1 }, (_, i): [string, string] => ["id", `c${i}`]);
    expect(validationMessage(() => readBulkRequest(form([["intent", "issue"], ...many])))).toBe(
      `Select at most ${BULK_MAX} credentials at once (${BULK_MAX + 1} were selected).`,
    );
    // Repeats of the same id do not count against the cap.
    const repeated = Array.from({ length: BULK_MAX * 2 }, (_, i): [string, string] => ["id", `c${i % BULK_MAX}`]);
    expect(readBulkRequest(form([["intent", "issue"], ...repeated])).ids).toHaveLength(BULK_MAX);
  });
  it("summarizes", () => {
    expect(summarize("issue", 3, 0)).toBe("3 issued.");
    expect(summarize("issue", 3, 1)).toBe("3 issued; 1 could not be issued:");
    expect(summarize("send", 1, 2)).toBe("1 email queued; 2 could not be sent:");
  });
});

describe("issuing and sending the selected credentials", () => {
  it("issues each selected draft, reports the others by name, and never touches another organization's", async () => {
    const { org, groupId } = await orgWithGroup("bulk-a", "free", 3);
    const { org: other, groupId: otherGroup } = await orgWithGroup("bulk-b", "premium");
    const make = (name: string) =>
      credentials.createCredential(org, { groupId, recipient: { name, email: `${name.toLowerCase()}@example.com` } });
    const [a, b, c, d, e] = await Promise.all(["Ada", "Bea", "Cy", "Di", "Ed"].map(make));
    const theirs = await credentials.createCredential(other, { groupId: otherGroup, recipient: { name: "Theirs" } });
    await credentials.issueCredential(org, a!.id);

    const outcome = await applyToCredentials(org, { intent: "issue", ids: [a!.id, b!.id, c!.id, theirs.id, d!.id, e!.id] });
    // a was issued already; the quota of 3 has one left after a, two more... b and c take them; d, e hit it.
    expect(outcome.done).toBe(2);
    expect(outcome.failures.map((f) => f.name)).toEqual(["Ada", theirs.id, "Di", "Ed"]);
    expect(outcome.failures[0]!.message).toBe("Only draft credentials can be issued; this one is issued.");
    expect(outcome.failures[1]!.message).toBe("Credential not found.");
    expect(outcome.failures[2]!.message).toMatch(/^The free plan issues up to 3 credentials/);
    expect(outcome.summary).toBe("2 issued; 4 could not be issued:");
    expect((await db().credential.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("draft");
    expect(await db().credential.count({ where: { organizationId: org.id, status: "issued" } })).toBe(3);
  });

  it("sends the issued ones that have an email and names the rest", async () => {
    const { org, groupId } = await orgWithGroup("bulk-c", "premium");
    const withEmail = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Mail Me", email: "mail.me@example.com" },
    });
    const noEmail = await credentials.createIssueCredential(org, { groupId, recipient: { name: "No Address" } });
    const draft = await credentials.createCredential(org, { groupId, recipient: { name: "Still Draft", email: "draft@example.com" } });
    const outcome = await applyToCredentials(org, { intent: "send", ids: [withEmail.id, noEmail.id, draft.id] });
    expect(outcome.done).toBe(1);
    expect(outcome.failures).toEqual([
      { id: noEmail.id, name: "No Address", message: "This credential has no recipient email address to send it to." },
      { id: draft.id, name: "Still Draft", message: "Only issued credentials can be sent; this one is draft." },
    ]);
    expect(await db().emailOutbox.count({ where: { credentialId: withEmail.id } })).toBe(1);
    expect(await db().emailOutbox.count({ where: { credentialId: { in: [noEmail.id, draft.id] } } })).toBe(0);
  });
});
