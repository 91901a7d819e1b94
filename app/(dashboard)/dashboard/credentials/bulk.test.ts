import { describe, expect, it } from "vitest";
import { scratchDatabase } from "@/test/support/db/scratch-database";

await scratchDatabase("bulk");

const { db } = await import("@/lib/db");
const { ApiError } = await import("@/lib/core/errors");
const { createOrganization } = await import("@/lib/organizations/service");
const { createDesign } = await import("@/lib/designs/service");
const { createGroup } = await import("@/lib/groups/service");
const credentials = await import("@/lib/credentials/service");
const { applyToCredentials, previewBulk, readBulkRequest, summarize, BULK_MAX } = await import("./bulk");

type Org = Awaited<ReturnType<typeof createOrganization>>;

async function orgWithGroup(slug: string, plan: "free" | "premium", quota?: number): Promise<{ org: Org; groupId: string }> {
  let org = await createOrganization({ slug, plan });
  if (quota !== undefined) org = await db().organization.update({ where: { id: org.id }, data: { monthlyIssueQuota: quota } });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
  return { org, groupId: group.id };
}

const request = (intent: "issue" | "send" | "revoke", ids: string[], extra: { sendAgain?: boolean; reason?: string } = {}) => ({
  intent,
  ids,
  sendAgain: false,
  seen: null,
  ...extra,
});

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
    ).toEqual({ intent: "send", ids: ["a", "b"], sendAgain: false, seen: null });
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
    ).toBe('must be "issue", "send" or "revoke"');
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
  it("summarizes with a count per outcome", () => {
    expect(summarize("issue", 3, 0, 0)).toBe("3 issued.");
    expect(summarize("issue", 3, 2, 1)).toBe("3 issued, 2 already issued, 1 refused:");
    expect(summarize("send", 1, 0, 2)).toBe("1 email queued, 2 refused:");
    expect(summarize("send", 0, 4, 0)).toBe("0 emails queued, 4 already emailed (not sent again).");
    expect(summarize("revoke", 2, 1, 0)).toBe("2 revoked, 1 already revoked.");
  });
  it("takes revoke's one reason by the API's rule, and send's confirmation", () => {
    const revoke = readBulkRequest(
      form([
        ["intent", "revoke"],
        ["id", "a"],
        ["reason", "Course withdrawn"],
      ]),
    );
    expect(revoke.reason).toBe("Course withdrawn");
    expect(
      validationMessage(() =>
        readBulkRequest(
          form([
            ["intent", "revoke"],
            ["id", "a"],
            ["reason", "x".repeat(501)],
          ]),
        ),
      ),
    ).toMatch(/500/);
    const send = readBulkRequest(
      form([
        ["intent", "send"],
        ["id", "a"],
        ["sendAgain", "1"],
        ["seen", JSON.stringify({ a: "mail_1", b: null })],
      ]),
    );
    expect(send).toMatchObject({ sendAgain: true, seen: { a: "mail_1", b: null } });
    expect(
      validationMessage(() =>
        readBulkRequest(
          form([
            ["intent", "send"],
            ["id", "a"],
            ["seen", "{nope"],
          ]),
        ),
      ),
    ).toBe("must be the confirmation's JSON");
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

    const outcome = await applyToCredentials(org, request("issue", [a!.id, b!.id, c!.id, theirs.id, d!.id, e!.id]));
    // a was issued already; the quota of 3 has one left after a, two more... b and c take them; d, e hit it.
    expect(outcome.done).toBe(2);
    expect(outcome.already).toEqual([{ id: a!.id, name: "Ada", message: "already issued" }]);
    expect(outcome.refused.map((f) => f.name)).toEqual([theirs.id, "Di", "Ed"]);
    expect(outcome.refused[0]!.message).toBe("Credential not found.");
    expect(outcome.refused[1]!.message).toMatch(/^The free plan issues up to 3 credentials/);
    expect(outcome.summary).toBe("2 issued, 1 already issued, 3 refused:");
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
    const outcome = await applyToCredentials(org, request("send", [withEmail.id, noEmail.id, draft.id]));
    expect(outcome.done).toBe(1);
    expect(outcome.refused).toEqual([
      { id: noEmail.id, name: "No Address", message: "This credential has no recipient email address to send it to." },
      { id: draft.id, name: "Still Draft", message: "Only issued credentials can be sent; this one is draft." },
    ]);
    expect(await db().emailOutbox.count({ where: { credentialId: withEmail.id } })).toBe(1);
    expect(await db().emailOutbox.count({ where: { credentialId: { in: [noEmail.id, draft.id] } } })).toBe(0);
  });
});

describe("bulk actions that never surprise", () => {
  const emailsOf = (id: string) => db().emailOutbox.count({ where: { credentialId: id, kind: "credential" } });

  it("send skips credentials already emailed unless Send again; the preview says how many of each first", async () => {
    const { org, groupId } = await orgWithGroup("bulk-again", "premium");
    const issue = (name: string, send: boolean) =>
      (send ? credentials.createIssueSendCredential : credentials.createIssueCredential)(org, {
        groupId,
        recipient: { name, email: `${name.toLowerCase()}@example.com` },
      });
    const fresh = await issue("Fresh", false);
    const emailed = await issue("Emailed", true);
    await db().emailOutbox.updateMany({
      where: { credentialId: emailed.id },
      data: { status: "sent", sentAt: new Date("2026-03-03T10:00:00Z") },
    });
    const draft = await credentials.createCredential(org, { groupId, recipient: { name: "Draft" } });

    const preview = await previewBulk(org, "send", [fresh.id, emailed.id, draft.id]);
    expect(preview.ready.map((r) => r.name)).toEqual(["Fresh"]);
    expect(preview.already).toEqual([{ id: emailed.id, name: "Emailed", message: "emailed 3 Mar" }]);
    expect(preview.refused.map((r) => r.name)).toEqual(["Draft"]);
    expect(await emailsOf(fresh.id)).toBe(0); // the preview writes nothing

    const first = await applyToCredentials(org, { ...request("send", [fresh.id, emailed.id]), seen: preview.seen });
    expect(first.summary).toBe("1 email queued, 1 already emailed (not sent again).");
    expect(first.already).toEqual([{ id: emailed.id, name: "Emailed", message: "already emailed on 3 Mar; not sent again" }]);
    expect(await emailsOf(fresh.id)).toBe(1);
    expect(await emailsOf(emailed.id)).toBe(1);

    // The same confirmed submit again (a double click): nothing changes, and it says so.
    const repeat = await applyToCredentials(org, { ...request("send", [fresh.id, emailed.id]), seen: preview.seen });
    expect(repeat.done).toBe(0);
    expect(repeat.already.map((r) => r.message)).toEqual([
      "emailed by another request after you confirmed; not sent again",
      "already emailed on 3 Mar; not sent again",
    ]);
    expect(await emailsOf(fresh.id)).toBe(1);

    // Send again, confirmed on the state now: the one sent goes again; the one still waiting is not doubled.
    const now = await previewBulk(org, "send", [fresh.id, emailed.id]);
    const again = await applyToCredentials(org, { ...request("send", [fresh.id, emailed.id], { sendAgain: true }), seen: now.seen });
    expect(again.done).toBe(1);
    expect(again.already).toEqual([
      { id: fresh.id, name: "Fresh", message: "an email to it is already waiting to go out; not sent twice" },
    ]);
    expect(await emailsOf(emailed.id)).toBe(2);
    expect(await emailsOf(fresh.id)).toBe(1);
  });

  it("two concurrent identical submits (two tabs) send each email once and the second reports it", async () => {
    const { org, groupId } = await orgWithGroup("bulk-tabs", "premium");
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await credentials.createIssueCredential(org, { groupId, recipient: { name: `P${i}`, email: `p${i}@example.com` } })).id);
    const preview = await previewBulk(org, "send", ids);
    const submit = () => applyToCredentials(org, { ...request("send", ids), seen: preview.seen });
    const [a, b] = await Promise.all([submit(), submit()]);
    expect(a.done + b.done).toBe(6);
    expect(a.already.length + b.already.length).toBe(6);
    for (const id of ids) expect(await emailsOf(id)).toBe(1);
    // Issue twice at once: each draft issued once, the rest reported as already issued.
    const drafts = await Promise.all(["D1", "D2", "D3"].map((name) => credentials.createCredential(org, { groupId, recipient: { name } })));
    const draftIds = drafts.map((d) => d.id);
    const [i1, i2] = await Promise.all([
      applyToCredentials(org, request("issue", draftIds)),
      applyToCredentials(org, request("issue", draftIds)),
    ]);
    expect(i1.done + i2.done).toBe(3);
    expect([...i1.already, ...i2.already].every((r) => r.message === "already issued")).toBe(true);
    expect(i1.refused.length + i2.refused.length).toBe(0);
  });

  it("revoke takes one reason for all, reports drafts as refused and a second revoke as already revoked", async () => {
    const { org, groupId } = await orgWithGroup("bulk-revoke", "premium");
    const one = await credentials.createIssueCredential(org, { groupId, recipient: { name: "One" } });
    const two = await credentials.createIssueCredential(org, { groupId, recipient: { name: "Two" } });
    const draft = await credentials.createCredential(org, { groupId, recipient: { name: "Draft" } });
    const preview = await previewBulk(org, "revoke", [one.id, two.id, draft.id]);
    expect([preview.ready.length, preview.already.length, preview.refused.length]).toEqual([2, 0, 1]);
    const ids = [one.id, two.id, draft.id];
    const [first, second] = await Promise.all([
      applyToCredentials(org, request("revoke", ids, { reason: "Course withdrawn" })),
      applyToCredentials(org, request("revoke", ids, { reason: "Course withdrawn" })),
    ]);
    expect(first.done + second.done).toBe(2);
    expect([...first.already, ...second.already].map((r) => r.name).sort()).toEqual(["One", "Two"]);
    expect(first.refused).toEqual([
      { id: draft.id, name: "Draft", message: "A draft credential cannot be revoked (it was never issued); delete it instead." },
    ]);
    for (const id of [one.id, two.id]) expect((await credentials.getCredential(org, id)).revocationReason).toBe("Course withdrawn");
    expect((await credentials.getCredential(org, draft.id)).revokedAt).toBeNull();
  });
});
