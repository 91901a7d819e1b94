// Name corrections end to end (docs/api.md, Name corrections): a recipient signed in to the wallet asks
// through {WALLET_URL}/api/wallet/me/credentials/{publicId}/correction-requests, the issuer lists,
// approves or rejects through /v1/correction-requests, the recipient is emailed, and the webhook events
// arrive. The webhook test runs on a database and server of its own with WEBHOOK_ALLOW_PRIVATE=1, so a
// receiver on this machine stands in for the internet.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { newDataDir, startOwnServer, uniqueEmail, type Credential } from "../support/credentials";
import { emlFilesContaining, waitFor, type ParsedMail } from "../support/mail";
import { createOrgs } from "../support/state";
import { issueCredential, walletGroup } from "../support/wallet-helpers";
import {
  askForWalletLink,
  signInToWallet,
  useWalletLink,
  walletCookieOf,
  walletLinkToken,
  walletSignInEmails,
} from "../support/wallet-session";
import { WebhookReceiver } from "../support/webhook-receiver";

test.describe.configure({ timeout: 120_000 });

type Correction = {
  id: string;
  credentialId: string;
  currentName: string;
  requestedName: string;
  note: string | null;
  status: "open" | "approved" | "rejected";
  createdAt: string;
  resolvedAt: string | null;
  resolution: string | null;
};
const CORRECTION_KEYS = ["id", "credentialId", "currentName", "requestedName", "note", "status", "createdAt", "resolvedAt", "resolution"];

/** POST .../correction-requests as the recipient whose session cookie this is (none: no cookie). */
function askCorrection(baseURL: string, cookie: string | null, publicId: string, body: unknown): Promise<Response> {
  return fetch(`${baseURL}/api/wallet/me/credentials/${publicId}/correction-requests`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function expectJson(res: Response, status: number): Promise<any> {
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  return text ? JSON.parse(text) : undefined;
}

async function expectWalletError(res: Response, status: number, code: string, paths: string[] = []) {
  const body = await expectJson(res, status);
  expect(body.error.code, JSON.stringify(body)).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  for (const p of paths) expect(body.error.details.map((d: { path: string }) => d.path)).toContain(p);
  return body;
}

async function openRequests(api: APIRequestContext): Promise<Correction[]> {
  return (await expectStatus(await api.get("/v1/correction-requests?status=open&limit=100"), 200)).data;
}

/** The email under `dataDir` to `to` whose subject matches, once it is written. */
async function emailTo(dataDir: string, to: string, subject: RegExp): Promise<ParsedMail> {
  const found = await waitFor(
    `an email to ${to} with subject ${subject}`,
    () => emlFilesContaining(path.join(dataDir, "mail"), to).find((m) => m.mail.to.includes(to) && subject.test(m.mail.subject)),
    45_000,
  );
  return found.mail;
}

/** A recipient with one issued credential, signed in to the wallet. */
async function recipientWithCredential(api: APIRequestContext, baseURL: string, name = "Ada Lovelase") {
  const group = await walletGroup(api, { name: `Course ${randomBytes(3).toString("hex")}` });
  const email = uniqueEmail("corr").toLowerCase();
  const credential = await issueCredential(api, group.id, { name, email });
  const cookie = await signInToWallet(baseURL, email);
  return { group, email, credential, cookie };
}

test.describe("name corrections", () => {
  test("the recipient asks, the issuer approves: same link, new name, new previews and signed document, an email", async ({
    api,
    server,
  }) => {
    const { group, email, credential, cookie } = await recipientWithCredential(api, server.baseURL);
    const previewsBefore = (await expectStatus(await api.get(`/v1/credentials/${credential.id}/designs`), 200)) as unknown[];
    const signedBefore = await expectStatus(await api.get(`/v1/credentials/${credential.id}/verifiable-credential`), 200);

    const asked = (await expectJson(
      await askCorrection(server.baseURL, cookie, credential.publicId, { name: "  Ada Lovelace ", note: "Missing a c\nThanks" }),
      201,
    )) as Correction;
    expect(Object.keys(asked).sort()).toEqual([...CORRECTION_KEYS].sort());
    expect(asked).toMatchObject({
      credentialId: credential.id,
      currentName: "Ada Lovelase",
      requestedName: "Ada Lovelace",
      note: "Missing a c\nThanks",
      status: "open",
      resolvedAt: null,
      resolution: null,
    });
    expect(asked.id).toMatch(/^ncr_/);
    // The recipient sees it too.
    const mine = await expectJson(
      await fetch(`${server.baseURL}/api/wallet/me/credentials/${credential.publicId}/correction-requests`, {
        headers: { Cookie: cookie },
      }),
      200,
    );
    expect(mine.data).toEqual([asked]);

    const listed = await expectStatus(await api.get("/v1/correction-requests?status=open"), 200);
    expect(listed.pagination).toEqual({ prev: null, next: null });
    expect(listed.data).toEqual([asked]);
    expect((await expectStatus(await api.get("/v1/correction-requests?status=approved"), 200)).data).toEqual([]);

    const approved = (await expectStatus(await api.post(`/v1/correction-requests/${asked.id}/approve`), 200)) as Correction;
    expect(approved).toMatchObject({ id: asked.id, status: "approved", resolution: null, requestedName: "Ada Lovelace" });
    expect(approved.resolvedAt).not.toBeNull();
    expect((await expectStatus(await api.get("/v1/correction-requests?status=approved"), 200)).data).toEqual([approved]);
    expect((await expectStatus(await api.get("/v1/correction-requests"), 200)).data).toEqual([approved]);

    const after = (await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200)) as Credential;
    expect(after.publicId).toBe(credential.publicId);
    expect(after.attributes["recipient.name"]).toBe("Ada Lovelace");
    expect(after.recipient?.name).toBe("Ada Lovelace");
    const previewsAfter = (await expectStatus(await api.get(`/v1/credentials/${credential.id}/designs`), 200)) as unknown[];
    expect(JSON.stringify(previewsAfter)).not.toBe(JSON.stringify(previewsBefore));
    const signedAfter = await expectStatus(await api.get(`/v1/credentials/${credential.id}/verifiable-credential`), 200);
    expect(JSON.stringify(signedAfter)).toContain("Ada Lovelace");
    expect(JSON.stringify(signedAfter)).not.toContain("Ada Lovelase");
    expect(JSON.stringify(signedAfter)).not.toBe(JSON.stringify(signedBefore));
    const page = await fetch(`${server.baseURL}/credentials/${credential.publicId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Ada Lovelace");

    const mail = await emailTo(server.dataDir, email, /has been corrected/);
    expect(mail.subject).toBe(`Your name on “${group.name}” has been corrected`);
    expect(mail.text).toContain("now shows the name Ada Lovelace");
    expect(mail.text).toContain(`/credentials/${credential.publicId}?recipient=true`);
    expect(mail.html).toContain(`/credentials/${credential.publicId}?recipient=true`);

    // Resolved is final; a new request can be made.
    await expectError(await api.post(`/v1/correction-requests/${asked.id}/approve`), 409, "conflict");
    await expectError(await api.post(`/v1/correction-requests/${asked.id}/reject`, { data: { reason: "no" } }), 409, "conflict");
    const again = await expectJson(await askCorrection(server.baseURL, cookie, credential.publicId, { name: "Ada King" }), 201);
    expect(again.currentName).toBe("Ada Lovelace");
  });

  test("the issuer rejects with a reason, which the recipient is emailed, escaped", async ({ api, server }) => {
    const { group, email, credential, cookie } = await recipientWithCredential(api, server.baseURL, "Grace Hoper");
    const asked = await expectJson(await askCorrection(server.baseURL, cookie, credential.publicId, { name: "Grace <b>Hopper</b>" }), 201);
    for (const [body, paths] of [
      [{}, ["reason"]],
      [{ reason: "" }, ["reason"]],
      [{ reason: "   " }, ["reason"]],
      [{ reason: "two\nlines" }, ["reason"]],
      [{ reason: "x".repeat(501) }, ["reason"]],
      [{ reason: "ok", extra: 1 }, []],
    ] as const) {
      await expectError(await api.post(`/v1/correction-requests/${asked.id}/reject`, { data: body }), 400, "validation_error", {
        paths: [...paths],
      });
    }
    expect((await openRequests(api)).map((r) => r.id)).toContain(asked.id);

    const rejected = await expectStatus(
      await api.post(`/v1/correction-requests/${asked.id}/reject`, { data: { reason: "Please use <i>the</i> name on your ID" } }),
      200,
    );
    expect(rejected).toMatchObject({ status: "rejected", resolution: "Please use <i>the</i> name on your ID" });
    expect((await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200)).attributes["recipient.name"]).toBe("Grace Hoper");

    const mail = await emailTo(server.dataDir, email, /name correction request/);
    expect(mail.subject).toBe(`Your name correction request for “${group.name}”`);
    expect(mail.text).toContain("Their reason: Please use <i>the</i> name on your ID");
    expect(mail.html).toContain("Please use &lt;i&gt;the&lt;/i&gt; name on your ID");
    expect(mail.html).toContain("Grace &lt;b&gt;Hopper&lt;/b&gt;");
    expect(mail.html).not.toContain("<i>the</i>");
    await expectError(await api.post(`/v1/correction-requests/${asked.id}/approve`), 409, "conflict");
  });

  test("the recipient's request is refused clearly, and nothing is written", async ({ api, server }) => {
    const { group, email, credential, cookie } = await recipientWithCredential(api, server.baseURL, "Alan Turring");
    const other = await recipientWithCredential(api, server.baseURL, "Someone Else");
    const base = server.baseURL;

    await expectWalletError(await askCorrection(base, null, credential.publicId, { name: "Alan Turing" }), 401, "unauthorized");
    await expectWalletError(await askCorrection(base, other.cookie, credential.publicId, { name: "Alan Turing" }), 404, "not_found");
    await expectWalletError(await askCorrection(base, cookie, "00000000-0000-4000-8000-000000000000", { name: "X" }), 404, "not_found");
    await expectWalletError(await askCorrection(base, cookie, "not-a-uuid", { name: "X" }), 404, "not_found");
    await expectWalletError(await askCorrection(base, cookie, credential.publicId, { name: "Alan Turring" }), 400, "validation_error", [
      "name",
    ]);
    await expectWalletError(await askCorrection(base, cookie, credential.publicId, { name: " Alan Turring " }), 400, "validation_error", [
      "name",
    ]);
    for (const body of [{}, { name: "" }, { name: "  " }, { name: "a\nb" }, { name: "x".repeat(201) }, { name: 5 }])
      await expectWalletError(await askCorrection(base, cookie, credential.publicId, body), 400, "validation_error", ["name"]);
    await expectWalletError(
      await askCorrection(base, cookie, credential.publicId, { name: "Alan Turing", note: "n".repeat(1001) }),
      400,
      "validation_error",
      ["note"],
    );
    await expectWalletError(await askCorrection(base, cookie, credential.publicId, { name: "Alan Turing", x: 1 }), 400, "validation_error");
    await expectWalletError(await askCorrection(base, cookie, credential.publicId, "{not json"), 400, "invalid_json");

    // A draft addressed to the same email, and a revoked credential: 409 with a clear message.
    const draft = await expectStatus(
      await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Alan", email } } }),
      201,
    );
    const draftAnswer = await expectWalletError(
      await askCorrection(base, cookie, draft.publicId, { name: "Alan Turing" }),
      409,
      "conflict",
    );
    expect(draftAnswer.error.message).toMatch(/not been issued/);
    const revoked = await issueCredential(api, group.id, { name: "Alan T", email });
    await expectStatus(await api.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: "error" } }), 200);
    const revokedAnswer = await expectWalletError(
      await askCorrection(base, cookie, revoked.publicId, { name: "Alan Turing" }),
      409,
      "conflict",
    );
    expect(revokedAnswer.error.message).toMatch(/revoked/);

    const ids = new Set([credential.id, draft.id, revoked.id]);
    expect(
      (await expectStatus(await api.get("/v1/correction-requests?limit=100"), 200)).data.filter((r: Correction) => ids.has(r.credentialId)),
    ).toEqual([]);
  });

  test("one open request per credential, and one winner between a concurrent approve and reject", async ({ api, server }) => {
    const { credential, cookie } = await recipientWithCredential(api, server.baseURL, "Edsger Dijkstr");
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => askCorrection(server.baseURL, cookie, credential.publicId, { name: `Edsger Dijkstra ${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const a of answers.filter((a) => a.status === 409)) expect((await a.json()).error.code).toBe("conflict");
    const open = (await openRequests(api)).filter((r) => r.credentialId === credential.id);
    expect(open).toHaveLength(1);

    const decisions = await Promise.all([
      api.post(`/v1/correction-requests/${open[0]!.id}/approve`),
      api.post(`/v1/correction-requests/${open[0]!.id}/reject`, { data: { reason: "no" } }),
    ]);
    expect(decisions.map((d) => d.status()).sort()).toEqual([200, 409]);
    const winner = decisions.find((d) => d.status() === 200)!;
    const name = (await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200)).attributes["recipient.name"];
    expect(name).toBe((await winner.json()).status === "approved" ? open[0]!.requestedName : "Edsger Dijkstr");
  });

  test("approving after the credential was revoked is 409, and the request can still be rejected", async ({ api, server }) => {
    const { credential, cookie } = await recipientWithCredential(api, server.baseURL, "Barbara Liskow");
    const asked = await expectJson(await askCorrection(server.baseURL, cookie, credential.publicId, { name: "Barbara Liskov" }), 201);
    await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`), 200);
    await expectError(await api.post(`/v1/correction-requests/${asked.id}/approve`), 409, "conflict", { message: /revoked/ });
    expect((await openRequests(api)).map((r) => r.id)).toContain(asked.id);
    await expectStatus(await api.post(`/v1/correction-requests/${asked.id}/reject`, { data: { reason: "Revoked" } }), 200);
  });

  test("another organization's requests are not found, and bad list parameters are refused", async ({ api, server, newOrg, client }) => {
    const { credential, cookie } = await recipientWithCredential(api, server.baseURL, "Ken Thomson");
    const asked = await expectJson(await askCorrection(server.baseURL, cookie, credential.publicId, { name: "Ken Thompson" }), 201);
    const stranger = await client({ token: (await newOrg()).token });
    await expectError(await stranger.post(`/v1/correction-requests/${asked.id}/approve`), 404, "not_found");
    await expectError(await stranger.post(`/v1/correction-requests/${asked.id}/reject`, { data: { reason: "x" } }), 404, "not_found");
    expect((await expectStatus(await stranger.get("/v1/correction-requests"), 200)).data).toEqual([]);
    await expectError(await api.post("/v1/correction-requests/ncr_unknown/approve"), 404, "not_found");
    await expectError(await api.get("/v1/correction-requests?status=closed"), 400, "validation_error", { paths: ["status"] });
    await expectError(await api.get("/v1/correction-requests?limit=0"), 400, "validation_error", { paths: ["limit"] });
    expect((await openRequests(api)).map((r) => r.id)).toContain(asked.id);
  });
});

/** Signs in to the wallet of a server whose mail folder is `dataDir` (signInToWallet knows the shared servers only). */
async function signInOn(baseURL: string, dataDir: string, email: string): Promise<string> {
  expect((await askForWalletLink(baseURL, email)).status).toBe(202);
  const found = await waitFor(`a wallet sign-in email to ${email}`, () => walletSignInEmails(baseURL, email, dataDir)[0], 45_000);
  const used = await useWalletLink(baseURL, walletLinkToken(found.mail));
  return walletCookieOf(used)!;
}

test("correction_request.created and .resolved webhooks carry the request as the API returns it", async ({
  scratchDatabase,
  e2eState,
  client,
}, testInfo) => {
  test.setTimeout(240_000);
  const databaseUrl = await scratchDatabase();
  const dataDir = newDataDir(e2eState.runDir, "corrections-webhooks");
  const [org] = await createOrgs({ databaseUrl, dataDir }, `corr-${randomBytes(3).toString("hex")}`, 0, 1);
  const receiver = new WebhookReceiver();
  await receiver.start();
  const own = await startOwnServer(
    { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: "1", WEBHOOK_RETRY_BASE_SECONDS: "1" },
    path.join(e2eState.runDir, `own-corrections-${testInfo.testId}-${testInfo.project.name}.log`),
  );
  try {
    const api = await client({ baseURL: own.baseURL, token: org!.token });
    const endpoint = await expectStatus(
      await api.post("/v1/webhooks", {
        data: {
          url: `${receiver.url}/ok/corrections`,
          events: ["correction_request.created", "correction_request.resolved", "credential.updated"],
        },
      }),
      201,
    );
    receiver.expectSecrets("/ok/corrections", endpoint.secret);
    const group = await walletGroup(api, { name: "Webhook corrections" });
    const email = uniqueEmail("corrwh").toLowerCase();
    const credential = await issueCredential(api, group.id, { name: "Linus Torvals", email });
    const cookie = await signInOn(own.baseURL, dataDir, email);
    const asked = await expectJson(await askCorrection(own.baseURL, cookie, credential.publicId, { name: "Linus Torvalds" }), 201);
    const approved = await expectStatus(await api.post(`/v1/correction-requests/${asked.id}/approve`), 200);
    const updated = await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200);

    const events = await waitFor(
      "three verified deliveries",
      () => {
        const verified = receiver.to("/ok/corrections").map((d) => d.event);
        return verified.length >= 3 && verified.every(Boolean) ? verified : undefined;
      },
      60_000,
    );
    const byType = Object.fromEntries(events.map((e) => [e!.type, e!.data]));
    expect(byType["correction_request.created"]).toEqual(asked);
    expect(byType["correction_request.resolved"]).toEqual(approved);
    expect(byType["credential.updated"]).toEqual(updated);
  } finally {
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach("own-server.log", { body: own.output(), contentType: "text/plain" });
    await own.stop();
    await receiver.stop();
  }
});
