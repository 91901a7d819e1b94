// Revocation (docs/api.md, Revocation): POST /v1/credentials/{id}/revoke, the
// `revokedAt` / `revocationReason` fields of every Credential, `revokedAt` as a search field, and what a
// revoked credential refuses (send, PATCH, a second revoke). Each test has an organization of its own,
// so the searches below see only that test's credentials.
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import {
  addDays,
  createCredential,
  expectCredentialShape,
  getCredential,
  ISO_DATE_TIME,
  issue,
  newGroup,
  todayUtc,
  uniqueEmail,
  type Credential,
} from "../support/credentials";
import { emlFilesContaining, sleep, waitFor } from "../support/mail";
import { searchIds, withRateLimit } from "../support/search";

type Revoked = Credential;

const revokePath = (id: string) => `/v1/credentials/${id}/revoke`;

async function revoke(api: APIRequestContext, id: string, body?: Record<string, unknown>): Promise<Revoked> {
  return expectStatus(await api.post(revokePath(id), body === undefined ? {} : { data: body }), 200);
}

async function issuedCredential(api: APIRequestContext, groupId: string, extra: Record<string, unknown> = {}): Promise<Revoked> {
  const draft = await createCredential(api, { groupId, recipient: { name: "Ada Lovelace", email: uniqueEmail("rev") }, ...extra });
  return await issue(api, draft.id);
}

test.describe("POST /v1/credentials/{id}/revoke", () => {
  test("an issued credential: 200 with revokedAt and the reason; the status keeps its value; GET agrees", async ({ api }) => {
    const group = await newGroup(api);
    const credential = await issuedCredential(api, group.id);
    expect(credential.revokedAt).toBeNull();
    expect(credential.revocationReason).toBeNull();
    const before = Date.now();
    const revoked = await revoke(api, credential.id, { reason: "  Issued to the wrong person  " });
    expectCredentialShape(revoked);
    expect(revoked.status).toBe("issued");
    expect(revoked.revokedAt).toMatch(ISO_DATE_TIME);
    expect(Date.parse(revoked.revokedAt!)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(revoked.revokedAt!)).toBeLessThanOrEqual(Date.now() + 5_000);
    // Single-line text, trimmed like the other single-line fields.
    expect(revoked.revocationReason).toBe("Issued to the wrong person");
    expect({ ...revoked, revokedAt: undefined, revocationReason: undefined, updatedAt: undefined }).toEqual({
      ...credential,
      revokedAt: undefined,
      revocationReason: undefined,
      updatedAt: undefined,
    });
    expect(await getCredential(api, credential.id)).toEqual(revoked);
  });

  test("a scheduled and an expired credential can be revoked; without a body or with {} the reason is null", async ({ api }) => {
    const group = await newGroup(api);
    const scheduled = await issuedCredential(api, group.id, { issueDate: addDays(todayUtc(), 5) });
    expect(scheduled.status).toBe("scheduled");
    const expired = await issuedCredential(api, group.id, { issueDate: addDays(todayUtc(), -30), expiryDate: addDays(todayUtc(), -1) });
    expect(expired.status).toBe("expired");

    // No body at all.
    const r1: Revoked = await expectStatus(await api.post(revokePath(scheduled.id)), 200);
    expect(r1).toEqual(
      expect.objectContaining({ status: "scheduled", revokedAt: expect.stringMatching(ISO_DATE_TIME), revocationReason: null }),
    );
    // An empty JSON object.
    const r2 = await revoke(api, expired.id, {});
    expect(r2).toEqual(
      expect.objectContaining({ status: "expired", revokedAt: expect.stringMatching(ISO_DATE_TIME), revocationReason: null }),
    );
  });

  test("a draft → 409 conflict, nothing changed", async ({ api }) => {
    const group = await newGroup(api);
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft Person" } });
    await expectError(await api.post(revokePath(draft.id), { data: { reason: "no" } }), 409, "conflict");
    expect(await getCredential(api, draft.id)).toEqual(draft);
  });

  test("revoking twice → 409 conflict; the first revocation stays as it was (final)", async ({ api }) => {
    const group = await newGroup(api);
    const credential = await issuedCredential(api, group.id);
    const revoked = await revoke(api, credential.id, { reason: "First reason" });
    await expectError(await api.post(revokePath(credential.id), { data: { reason: "Second reason" } }), 409, "conflict", {
      message: /revoked/i,
    });
    await expectError(await api.post(revokePath(credential.id)), 409, "conflict");
    expect(await getCredential(api, credential.id)).toEqual(revoked);
  });

  test("a bad reason → 400 validation_error at `reason`, nothing changed", async ({ api }) => {
    const group = await newGroup(api);
    const credential = await issuedCredential(api, group.id);
    const bad: [string, unknown][] = [
      ["too long", "x".repeat(501)],
      ["empty", ""],
      ["only spaces", "   "],
      ["a line break", "two\nlines"],
      ["a control character", "bell\u0007"],
      ["a bidi override", "Ada\u202eecnelovaL"],
      ["a number", 42],
      ["null", null],
    ];
    for (const [what, reason] of bad) {
      await test.step(what, async () => {
        await expectError(await api.post(revokePath(credential.id), { data: { reason } }), 400, "validation_error", {
          paths: ["reason"],
          exactPaths: true,
        });
      });
    }
    await expectError(await api.post(revokePath(credential.id), { data: { reason: "ok", extra: 1 } }), 400, "validation_error", {
      paths: ["extra"],
    });
    await expectError(
      await api.post(revokePath(credential.id), { data: "[1]", headers: { "content-type": "application/json" } }),
      400,
      "invalid_json",
    );
    expect(await getCredential(api, credential.id)).toEqual(credential);
    // 500 characters is the limit, not past it.
    expect((await revoke(api, credential.id, { reason: "y".repeat(500) })).revocationReason).toBe("y".repeat(500));
  });

  test("another organization's credential, or an unknown id → 404; nothing changed", async ({ api, newOrg, client }) => {
    const group = await newGroup(api);
    const credential = await issuedCredential(api, group.id);
    const other = await client({ token: (await newOrg()).token });
    await expectError(await other.post(revokePath(credential.id), { data: { reason: "not mine" } }), 404, "not_found");
    await expectError(await api.post(revokePath("cred_does_not_exist")), 404, "not_found");
    expect(await getCredential(api, credential.id)).toEqual(credential);
  });

  test("20 concurrent revokes of one credential: exactly one 200, the others 409", async ({ api }) => {
    const group = await newGroup(api);
    const credential = await issuedCredential(api, group.id);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => withRateLimit(() => api.post(revokePath(credential.id), { data: { reason: `Reason ${i}` } }))),
    );
    const statuses = responses.map((r) => r.status());
    expect(
      statuses.filter((s) => s === 200),
      statuses.join(","),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 409),
      statuses.join(","),
    ).toHaveLength(19);
    const winner: Revoked = await responses.find((r) => r.status() === 200)!.json();
    // The stored reason is the winner's, not one of a loser's.
    expect(await getCredential(api, credential.id)).toEqual(winner);
  });

  test("a revoked credential cannot be sent or changed (409), nothing changed", async ({ api }) => {
    const group = await newGroup(api);
    const credential = await issuedCredential(api, group.id);
    const revoked = await revoke(api, credential.id, { reason: "Withdrawn" });
    await expectError(await api.post(`/v1/credentials/${credential.id}/send`, { data: { deliveryMethod: "email" } }), 409, "conflict", {
      message: /revoked/i,
    });
    await expectError(
      await api.patch(`/v1/credentials/${credential.id}`, { data: { issueDate: addDays(todayUtc(), -2) } }),
      409,
      "conflict",
      {
        message: /revoked/i,
      },
    );
    await expectError(await api.post(`/v1/credentials/${credential.id}/issue`), 409, "conflict");
    expect(await getCredential(api, credential.id)).toEqual(revoked);
  });

  test("an email still queued for the credential is cancelled by the revoke; another credential's goes out", async ({ api, server }) => {
    const mailDir = path.join(server.dataDir, "mail");
    const group = await newGroup(api);
    const revokedEmail = uniqueEmail("rev-cancelled");
    const keptEmail = uniqueEmail("rev-kept");
    const toRevoke = await issuedCredential(api, group.id, { recipient: { name: "Cancelled", email: revokedEmail } });
    const kept = await issuedCredential(api, group.id, { recipient: { name: "Kept", email: keptEmail } });
    // A send waits a second for repeats to coalesce with it before the worker takes it: the revoke
    // right after comes while it is still queued.
    for (const c of [toRevoke, kept])
      await expectStatus(await api.post(`/v1/credentials/${c.id}/send`, { data: { deliveryMethod: "email" } }), 200);
    await revoke(api, toRevoke.id);
    await waitFor("the kept credential's .eml", () => emlFilesContaining(mailDir, keptEmail).length > 0, 20_000, 200);
    await sleep(1500);
    expect(emlFilesContaining(mailDir, revokedEmail)).toEqual([]);
  });

  test("GET, list and search show revokedAt and revocationReason null for credentials that are not revoked", async ({ api }) => {
    const group = await newGroup(api);
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft" } });
    const issued = await issuedCredential(api, group.id);
    for (const c of [draft, issued, await getCredential(api, issued.id)] as Revoked[]) {
      expect(c.revokedAt).toBeNull();
      expect(c.revocationReason).toBeNull();
    }
    const list = await expectStatus(await api.get("/v1/credentials"), 200);
    for (const c of list.data as Revoked[]) expect([c.revokedAt, c.revocationReason]).toEqual([null, null]);
  });
});

test.describe("revokedAt in search", () => {
  test("not null, equals null, gt/lt, gte/lte, in and NOT find exactly the revoked ones", async ({ api }) => {
    const group = await newGroup(api);
    const [a, b, c] = [await issuedCredential(api, group.id), await issuedCredential(api, group.id), await issuedCredential(api, group.id)];
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Never issued" } });
    const ra = await revoke(api, a.id, { reason: "first" });
    await sleep(20); // distinct revokedAt values, so that gt/lt can tell the two apart
    const rb = await revoke(api, b.id);
    expect(Date.parse(rb.revokedAt!)).toBeGreaterThan(Date.parse(ra.revokedAt!));

    const sorted = (ids: string[]) => [...ids].sort();
    const search = async (filter: unknown) => sorted(await searchIds(api, filter));
    expect(await search({ revokedAt: { not: null } })).toEqual(sorted([a.id, b.id]));
    expect(await search({ revokedAt: null })).toEqual(sorted([c.id, draft.id]));
    expect(await search({ revokedAt: { equals: null } })).toEqual(sorted([c.id, draft.id]));
    expect(await search({ revokedAt: { gt: ra.revokedAt } })).toEqual([b.id]);
    expect(await search({ revokedAt: { gte: ra.revokedAt } })).toEqual(sorted([a.id, b.id]));
    expect(await search({ revokedAt: { lt: rb.revokedAt } })).toEqual([a.id]);
    expect(await search({ revokedAt: { lte: rb.revokedAt } })).toEqual(sorted([a.id, b.id]));
    expect(await search({ revokedAt: ra.revokedAt })).toEqual([a.id]);
    expect(await search({ revokedAt: { in: [rb.revokedAt] } })).toEqual([b.id]);
    // Two-valued logic: `not` a value keeps the credentials that were never revoked.
    expect(await search({ revokedAt: { not: ra.revokedAt } })).toEqual(sorted([b.id, c.id, draft.id]));
    expect(await search({ NOT: { revokedAt: { lt: "2000-01-01T00:00:00Z" } } })).toEqual(sorted([a.id, b.id, c.id, draft.id]));
    expect(await search({ AND: [{ revokedAt: { not: null } }, { status: "issued" }] })).toEqual(sorted([a.id, b.id]));
    // Found credentials carry the fields.
    const page = await expectStatus(await api.post("/v1/credentials/search", { data: { filter: { id: a.id } } }), 200);
    expect(page.data).toEqual([ra]);
  });

  test("a bad revokedAt value → 400 validation_error at its path; sorting by it is not offered", async ({ api }) => {
    for (const filter of [{ revokedAt: "2026-01-01" }, { revokedAt: { contains: "2026" } }, { revokedAt: { in: [null] } }]) {
      await expectError(await api.post("/v1/credentials/search", { data: { filter } }), 400, "validation_error");
    }
    await expectError(await api.post("/v1/credentials/search", { data: { filter: { revokedAt: "yesterday" } } }), 400, "validation_error", {
      paths: ["filter.revokedAt"],
    });
    await expectError(
      await api.post("/v1/credentials/search", { data: { sort: { property: "revokedAt", order: "asc" } } }),
      400,
      "validation_error",
    );
  });
});

test.describe("the wallet page of a revoked credential", () => {
  /** Every trace of a download in a page: a download link, a `download=` query, a PDF, a PNG to save, the QR code files. */
  const DOWNLOAD_TRACES: [string, RegExp][] = [
    ["an <a download> link", /<a\b[^>]*\sdownload(?=[\s=>/])/i],
    ["a ?download= URL", /[?&](?:amp;)?download=/i],
    ["a .pdf URL", /\.pdf\b/i],
    ["a .png?download URL", /\.png\?[^"'\s]*download/i],
    ["the baked badge PNG", /badge\.png/i],
    ["the QR code", /qr\.(?:png|svg)/i],
    ["LinkedIn's add-to-profile form", /linkedin\.com\/profile\/add/i],
  ];
  const tracesIn = (text: string) => DOWNLOAD_TRACES.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);

  test("its HTML and RSC payload carry no download, share or add-to-profile URL; a standing credential's do", async ({ api, client }) => {
    const group = await newGroup(api);
    const kept = await issuedCredential(api, group.id);
    const revoked = await issuedCredential(api, group.id);
    await revoke(api, revoked.id, { reason: "Issued by mistake" });
    const anonymous = await client();

    // The same checks find the offers on a page that still stands: they can fail.
    const keptHtml = await (await anonymous.get(`/credentials/${kept.publicId}?recipient=true`)).text();
    expect(tracesIn(keptHtml)).toEqual(expect.arrayContaining(["a ?download= URL", "a .pdf URL", "a .png?download URL", "the QR code"]));

    for (const path of [`/credentials/${revoked.publicId}`, `/credentials/${revoked.publicId}?recipient=true`]) {
      const page = await anonymous.get(path);
      expect(page.status(), path).toBe(200);
      const html = await page.text();
      expect(html).toContain("This credential was revoked");
      expect(html).toContain("Issued by mistake");
      expect(tracesIn(html), path).toEqual([]);
      // The React Server Components payload a client-side navigation fetches holds the same props.
      const rsc = await anonymous.get(path, { headers: { RSC: "1" } });
      expect(rsc.status(), `${path} (RSC)`).toBe(200);
      expect(tracesIn(await rsc.text()), `${path} (RSC)`).toEqual([]);
    }
  });
});
