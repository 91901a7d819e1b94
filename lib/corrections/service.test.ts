import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("corrections");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const service = await import("./service");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let other: Org;
let groupId: string;

beforeAll(async () => {
  org = await createOrganization({ slug: "corr", name: "Corr Academy", plan: "premium" });
  other = await createOrganization({ slug: "corr-other", plan: "premium" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  groupId = (await createGroup(org.id, { name: "Safety course", designIds: [design.id] })).id;
  // An endpoint subscribed to everything, so events are written (its URL is never called here).
  await db().webhookEndpoint.create({
    data: { id: "whk_test", organizationId: org.id, url: "https://hooks.example.com/x", events: '["*"]', encryptedSecret: "unused" },
  });
});

let counter = 0;
async function issued(name = "Ada Lovelase") {
  counter++;
  const email = `person${counter}@example.com`;
  const credential = await credentials.createIssueSendCredential(org, { groupId, recipient: { name, email } });
  return { credential, email };
}

async function eventsOf(type: string) {
  const rows = await db().webhookEvent.findMany({ where: { organizationId: org.id, type } });
  return rows.map((r) => JSON.parse(r.payload) as { data: Record<string, unknown> });
}

describe("requesting a correction", () => {
  it("records the request with the current name, and the created event", async () => {
    const { credential, email } = await issued();
    const request = await service.requestNameCorrection(email.toUpperCase(), credential.publicId, { name: "Ada Lovelace", note: "typo" });
    expect(request).toMatchObject({
      credentialId: credential.id,
      currentName: "Ada Lovelase",
      requestedName: "Ada Lovelace",
      note: "typo",
      status: "open",
      resolvedAt: null,
      resolution: null,
    });
    expect(request.id).toMatch(/^ncr_/);
    expect((await eventsOf("correction_request.created")).map((e) => e.data)).toContainEqual(request);
  });

  it("answers 404 for another recipient's credential and an unknown one, writing nothing", async () => {
    const { credential } = await issued();
    const before = await db().correctionRequest.count();
    await expect(service.requestNameCorrection("stranger@example.com", credential.publicId, { name: "X" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      service.requestNameCorrection("stranger@example.com", "00000000-0000-4000-8000-000000000000", { name: "X" }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await db().correctionRequest.count()).toBe(before);
  });

  it("refuses the name already on the credential, and revoked credentials", async () => {
    const { credential, email } = await issued("Same Name");
    await expect(service.requestNameCorrection(email, credential.publicId, { name: "Same Name" })).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "name" }],
    });
    await credentials.revokeCredential(org, credential.id, {});
    await expect(service.requestNameCorrection(email, credential.publicId, { name: "Other" })).rejects.toMatchObject({ code: "conflict" });
    expect(await db().correctionRequest.count({ where: { credentialId: credential.id } })).toBe(0);
  });

  it("keeps one open request per credential, however concurrent: one wins, the rest are 409", async () => {
    const { credential, email } = await issued();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => service.requestNameCorrection(email, credential.publicId, { name: `Name ${i}` })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === "rejected")) expect(o.reason).toMatchObject({ code: "conflict" });
    expect(await db().correctionRequest.count({ where: { credentialId: credential.id } })).toBe(1);
  });
});

describe("resolving a request", () => {
  it("approves by applying the name as PATCH does: the same credential, recipient renamed, credential.updated, and an email", async () => {
    const { credential, email } = await issued("Grace Hoper");
    const request = await service.requestNameCorrection(email, credential.publicId, { name: "Grace Hopper" });
    const mailsBefore = await db().emailOutbox.count({ where: { credentialId: credential.id } });
    const approved = await service.approveCorrectionRequest(org, request.id);
    expect(approved).toMatchObject({ status: "approved", resolution: null });
    expect(approved.resolvedAt).not.toBeNull();

    const after = await credentials.getCredential(org, credential.id);
    expect(after.publicId).toBe(credential.publicId);
    expect(after.attributes["recipient.name"]).toBe("Grace Hopper");
    expect(after.recipient?.name).toBe("Grace Hopper");
    const updated = (await eventsOf("credential.updated")).map((e) => e.data);
    expect(updated).toContainEqual(after);
    expect((await eventsOf("correction_request.resolved")).map((e) => e.data)).toContainEqual(approved);
    const mails = await db().emailOutbox.findMany({ where: { credentialId: credential.id }, orderBy: { createdAt: "asc" } });
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.composition).toContain("Grace Hopper");

    // A new request can be made once the last one is resolved.
    await expect(service.requestNameCorrection(email, credential.publicId, { name: "Grace B. Hopper" })).resolves.toMatchObject({
      currentName: "Grace Hopper",
    });
  });

  it("does not count the answer's email as the credential's own: an unsent credential still reads as never emailed", async () => {
    const email = "never-emailed@example.com";
    const draft = await credentials.createCredential(org, { groupId, recipient: { name: "Alan Turring", email } });
    const credential = await credentials.issueCredential(org, draft.id);
    const request = await service.requestNameCorrection(email, credential.publicId, { name: "Alan Turing" });
    await service.approveCorrectionRequest(org, request.id);
    const outbox = await db().emailOutbox.findMany({ where: { credentialId: credential.id } });
    expect(outbox.map((m) => m.kind)).toEqual(["correction_outcome"]);
    const { latestCredentialEmails } = await import("../mail/outbox");
    expect((await latestCredentialEmails(org.id, [credential.id])).has(credential.id)).toBe(false);
  });

  it("refuses to resolve a resolved request (409) and another organization's (404), changing nothing", async () => {
    const { credential, email } = await issued("Alan Turring");
    const request = await service.requestNameCorrection(email, credential.publicId, { name: "Alan Turing" });
    await expect(service.approveCorrectionRequest(other, request.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(service.rejectCorrectionRequest(other, request.id, { reason: "no" })).rejects.toMatchObject({ code: "not_found" });
    const rejected = await service.rejectCorrectionRequest(org, request.id, { reason: "Matches the enrolment record" });
    expect(rejected).toMatchObject({ status: "rejected", resolution: "Matches the enrolment record" });
    await expect(service.approveCorrectionRequest(org, request.id)).rejects.toMatchObject({ code: "conflict" });
    await expect(service.rejectCorrectionRequest(org, request.id, { reason: "again" })).rejects.toMatchObject({ code: "conflict" });
    expect((await credentials.getCredential(org, credential.id)).attributes["recipient.name"]).toBe("Alan Turring");
    const stored = await db().correctionRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(stored).toMatchObject({ status: "rejected", resolution: "Matches the enrolment record", openCredentialId: null });
  });

  it("lets exactly one of a concurrent approve and reject win", async () => {
    const { credential, email } = await issued("Edsger Dijkstr");
    const request = await service.requestNameCorrection(email, credential.publicId, { name: "Edsger Dijkstra" });
    const outcomes = await Promise.allSettled([
      service.approveCorrectionRequest(org, request.id),
      service.rejectCorrectionRequest(org, request.id, { reason: "no" }),
      service.approveCorrectionRequest(org, request.id),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === "rejected")) expect(o.reason).toMatchObject({ code: "conflict" });
    expect(await db().webhookEvent.count({ where: { type: "correction_request.resolved", payload: { contains: request.id } } })).toBe(1);
  });

  it("refuses to approve once the credential was revoked, and leaves the request open to be rejected", async () => {
    const { credential, email } = await issued("Barbara Liskow");
    const request = await service.requestNameCorrection(email, credential.publicId, { name: "Barbara Liskov" });
    await credentials.revokeCredential(org, credential.id, { reason: "withdrawn" });
    await expect(service.approveCorrectionRequest(org, request.id)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("revoked"),
    });
    expect((await db().correctionRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("open");
    await expect(service.rejectCorrectionRequest(org, request.id, { reason: "Revoked" })).resolves.toMatchObject({ status: "rejected" });
  });

  it("emails the reason of a rejection, escaped in the HTML part, in the organization's look", async () => {
    const { credential, email } = await issued("Ken Thomson");
    const request = await service.requestNameCorrection(email, credential.publicId, { name: "<b>Ken</b>" });
    await service.rejectCorrectionRequest(org, request.id, { reason: "Use <i>your</i> legal name" });
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { credentialId: credential.id }, orderBy: { createdAt: "desc" } });
    const { composeEmail } = await import("../mail/composition");
    const rendered = await composeEmail(mail.composition!, async () => true);
    expect(rendered.subject).toBe("Your name correction request for “Safety course”");
    expect(rendered.text).toContain("Their reason: Use <i>your</i> legal name");
    expect(rendered.text).toContain(`/credentials/${credential.publicId}?recipient=true`);
    expect(rendered.html).toContain("Use &lt;i&gt;your&lt;/i&gt; legal name");
    expect(rendered.html).toContain("&lt;b&gt;Ken&lt;/b&gt;");
    expect(rendered.html).not.toContain("<i>your</i>");
    expect(rendered.html).toContain("Corr Academy");
  });

  it("lists an organization's requests by status, newest first", async () => {
    const open = await service.listCorrectionRequests(org, { status: "open", limit: 100 });
    expect(open.data.every((r) => r.status === "open")).toBe(true);
    const rejected = await service.listCorrectionRequests(org, { status: "rejected", limit: 100 });
    expect(rejected.data.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(rejected.data[0]!).sort()).toEqual(
      ["id", "credentialId", "currentName", "requestedName", "note", "status", "createdAt", "resolvedAt", "resolution"].sort(),
    );
    expect((await service.listCorrectionRequests(other, { limit: 100 })).data).toEqual([]);
    expect(await service.countOpenCorrectionRequests(org.id)).toBe(open.data.length);
  });
});
