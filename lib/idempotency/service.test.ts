// Claims, kept answers and expiry on a real SQLite database.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { ApiError } from "../core/errors";

await scratchDatabase("idempotency");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const idem = await import("./service");
const { IDEMPOTENCY_KEEP_MS, IDEMPOTENCY_LEASE_MS } = await import("../core/idempotency");

let n = 0;
async function request(fingerprint = "f1") {
  const org = await createOrganization({ slug: `idem-${n++}` });
  return { organizationId: org.id, key: "k-1", method: "POST", path: "/v1/groups", fingerprint };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).code;
}

describe("idempotency claims", () => {
  it("lets one request claim a key, answers the same request from the kept answer and refuses another", async () => {
    const req = await request();
    const first = await idem.claimIdempotencyKey(req);
    expect("claimId" in first).toBe(true);
    expect(await codeOf(idem.claimIdempotencyKey(req))).toBe("conflict");
    await idem.keepIdempotentAnswer((first as { claimId: string }).claimId, {
      status: 201,
      headers: { "Content-Type": "application/json" },
      body: '{"id":"x"}',
    });
    expect(await idem.claimIdempotencyKey(req)).toEqual({
      replay: { status: 201, headers: { "Content-Type": "application/json" }, body: '{"id":"x"}' },
    });
    expect(await codeOf(idem.claimIdempotencyKey({ ...req, fingerprint: "f2" }))).toBe("idempotency_key_reused");
  });

  it("frees a released key, and takes over a claim whose lease ran out", async () => {
    const req = await request();
    const first = (await idem.claimIdempotencyKey(req)) as { claimId: string };
    await idem.releaseIdempotencyKey(first.claimId);
    const second = (await idem.claimIdempotencyKey(req)) as { claimId: string };
    expect(second.claimId).not.toBe(first.claimId);
    const later = new Date(Date.now() + IDEMPOTENCY_LEASE_MS + 1000);
    const third = (await idem.claimIdempotencyKey({ ...req, fingerprint: "other" }, later)) as { claimId: string };
    expect(third.claimId).toBeDefined();
    // The request that lost its lease can neither keep its answer nor free the new claim.
    await idem.keepIdempotentAnswer(second.claimId, { status: 201, headers: {}, body: "{}" });
    await idem.releaseIdempotencyKey(second.claimId);
    const row = await db().idempotencyRecord.findUniqueOrThrow({ where: { id: third.claimId } });
    expect(row.state).toBe("running");
  });
});

describe("expiry cleanup", () => {
  it("deletes rows past their 24 hours in bounded batches, leaves the others, and an expired key behaves as new", async () => {
    await db().idempotencyRecord.deleteMany({}); // the rows of the tests above would count too
    const req = await request();
    const now = Date.now();
    for (let i = 0; i < 5; i++) {
      const c = (await idem.claimIdempotencyKey({ ...req, key: `old-${i}` }, new Date(now))) as { claimId: string };
      await idem.keepIdempotentAnswer(c.claimId, { status: 200, headers: {}, body: "{}" }, new Date(now));
    }
    const fresh = (await idem.claimIdempotencyKey({ ...req, key: "fresh" }, new Date(now))) as { claimId: string };
    await idem.keepIdempotentAnswer(fresh.claimId, { status: 200, headers: {}, body: "{}" }, new Date(now + 60_000));

    const dayLater = new Date(now + IDEMPOTENCY_KEEP_MS + 1);
    expect(await idem.claimIdempotencyKey({ ...req, key: "old-0", fingerprint: "new" }, dayLater)).toHaveProperty("claimId");
    expect(await idem.deleteExpiredIdempotencyRecords(3, dayLater)).toBe(3);
    expect(await idem.deleteExpiredIdempotencyRecords(3, dayLater)).toBe(1);
    expect(await idem.deleteExpiredIdempotencyRecords(3, dayLater)).toBe(0);
    const left = await db().idempotencyRecord.findMany({ where: { organizationId: req.organizationId }, orderBy: { key: "asc" } });
    expect(left.map((r) => r.key)).toEqual(["fresh", "old-0"]);
  });

  it("keeps an answer holding a secret encrypted, and replays it as it was", async () => {
    const req = await request("f-secret");
    const claim = await idem.claimIdempotencyKey(req);
    if (!("claimId" in claim)) throw new Error("expected a claim");
    const body = JSON.stringify({ id: "whk_1", secret: "whsec_c2VjcmV0LXNob3duLW9uY2UtYW5kLW5ldmVyLWFnYWlu" });
    await idem.keepIdempotentAnswer(claim.claimId, { status: 201, headers: {}, body }, new Date(), { sealBody: true });
    const row = await db().idempotencyRecord.findUniqueOrThrow({ where: { id: claim.claimId } });
    expect(row.body).not.toContain("whsec_");
    expect(row.body).toMatch(/^sealed:v1\./);
    expect(await idem.claimIdempotencyKey(req)).toEqual({ replay: { status: 201, headers: {}, body } });
  });
});
