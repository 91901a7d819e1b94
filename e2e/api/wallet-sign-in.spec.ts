// The recipient's wallet sign-in (docs/api.md, Recipient wallet): POST /api/wallet/sign-in answers 202
// with the same body whatever the address, emails a one-time link only to an address that credentials
// are addressed to, refuses a bad email and is rate-limited per client address and per email; the
// link's page asks before it signs in, the link works once and for 15 minutes; sign-out ends the
// session at once; every /api/wallet/me route answers 401 without a session and 403 to another site.
//
// The test servers run with TRUST_PROXY=1 and no SMTP_URL: each request sends an address of its own
// (X-Forwarded-For), and mail is read back from DATA_DIR/mail/*.eml.
import { randomUUID } from "node:crypto";
import { test, expect } from "../fixtures";
import { sleep } from "../support/mail";
import { runTsx } from "../support/state";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import {
  askForWalletLink,
  nextWalletLinkToken,
  seenWalletEmails,
  signInToWallet,
  useWalletLink,
  walletCookieOf,
  walletSignInEmails,
} from "../support/wallet-session";

const newEmail = (tag: string) => `wallet.${tag}.${randomUUID().slice(0, 8)}@example.com`;

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

async function expectEnvelope(res: Response, status: number, code: string): Promise<ErrorBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as ErrorBody;
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  return body;
}

test("a recipient asks for a link, opens its page, signs in once, and signs out", async ({ api, server }) => {
  const email = newEmail("flow");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Ada Lovelace", email: email.toUpperCase() });

  const seen = seenWalletEmails(server.baseURL, email);
  const asked = await askForWalletLink(server.baseURL, email, { "Accept-Language": "de-DE,de;q=0.9" });
  expect(asked.status).toBe(202);
  expect(asked.headers.get("cache-control")).toBe("no-store");
  const token = await nextWalletLinkToken(server.baseURL, email, seen);
  const [mail] = walletSignInEmails(server.baseURL, email).map((m) => m.mail);
  // In the reader's language, text and HTML, branded as the instance (not an organization), from the outbox.
  expect(mail!.subject).toContain("Anmeldelink");
  expect(mail!.text).toContain("15 Minuten");
  expect(mail!.html).toContain('lang="de"');
  expect(mail!.html).toContain(`/wallet/sign-in?token=${token}`);

  // Opening the page (as a mail scanner would) uses nothing up; it shows a button that posts.
  for (let i = 0; i < 2; i++) {
    const page = await fetch(`${server.baseURL}/wallet/sign-in?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('action="/api/wallet/sign-in/link"');
    expect(html).toContain('data-testid="wallet-link-sign-in"');
  }

  const used = await useWalletLink(server.baseURL, token);
  expect(used.status).toBe(303);
  expect(used.headers.get("location")).toBe("/wallet");
  const setCookie = used.headers.getSetCookie().join("\n");
  expect(setCookie).toMatch(/cis\.wallet-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000/);
  expect(setCookie).not.toContain("next-auth");
  const cookie = walletCookieOf(used)!;
  const list = await fetch(`${server.baseURL}/api/wallet/me/credentials`, { headers: { Cookie: cookie } });
  expect(list.status).toBe(200);
  expect(list.headers.get("cache-control")).toBe("no-store");

  // The /wallet page now shows the signed-in wallet.
  const wallet = await (await fetch(`${server.baseURL}/wallet`, { headers: { Cookie: cookie } })).text();
  expect(wallet).toContain(`data-testid="wallet-signed-in-as"`);
  expect(wallet).toContain(email.toLowerCase());

  // Used: a second use signs nobody in and lands on the page that says so and offers a new link.
  const again = await useWalletLink(server.baseURL, token);
  expect(again.status).toBe(303);
  expect(again.headers.get("location")).toBe("/wallet/sign-in?invalid=1");
  expect(walletCookieOf(again)).toBeNull();
  const usedPage = await (await fetch(`${server.baseURL}/wallet/sign-in?token=${encodeURIComponent(token)}`)).text();
  expect(usedPage).toContain('data-testid="wallet-link-invalid"');
  expect(usedPage).toContain('href="/wallet"');

  // Sign-out: 204, the cookie is removed, and the old cookie gets 401 at once.
  const out = await fetch(`${server.baseURL}/api/wallet/sign-out`, { method: "POST", headers: { Cookie: cookie } });
  expect(out.status).toBe(204);
  expect(out.headers.getSetCookie().join("\n")).toMatch(/cis\.wallet-session=; .*Max-Age=0/);
  await expectEnvelope(await fetch(`${server.baseURL}/api/wallet/me/credentials`, { headers: { Cookie: cookie } }), 401, "unauthorized");
  // Signing out again (or without a session) is still 204.
  expect((await fetch(`${server.baseURL}/api/wallet/sign-out`, { method: "POST", headers: { Cookie: cookie } })).status).toBe(204);
});

test("the cookie is __Host- and Secure over https, and the link used twice at once signs in once", async ({ api, server }) => {
  const email = newEmail("https");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Grace Hopper", email });
  const seen = seenWalletEmails(server.baseURL, email);
  expect((await askForWalletLink(server.baseURL, email)).status).toBe(202);
  const token = await nextWalletLinkToken(server.baseURL, email, seen);
  const post = () =>
    fetch(`${server.baseURL}/api/wallet/sign-in/link`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: new URL(server.baseURL).origin,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": uniqueAddress(),
      },
      body: new URLSearchParams({ token }).toString(),
    });
  const both = await Promise.all([post(), post()]);
  const locations = both.map((r) => r.headers.get("location")).sort();
  expect(locations).toEqual(["/wallet", "/wallet/sign-in?invalid=1"]);
  const winner = both.find((r) => r.headers.get("location") === "/wallet")!;
  expect(winner.headers.getSetCookie().join("\n")).toMatch(
    /^__Host-cis\.wallet-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/m,
  );
});

test("over https only the __Host- cookie signs in: a plain-named one (as a sibling subdomain could plant) is ignored", async ({
  api,
  server,
}) => {
  const email = newEmail("fixation");
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Ada", email });
  const token = (await signInToWallet(server.baseURL, email)).split(/=(.*)/s)[1]!;
  const plain = `cis.wallet-session=${token}`;
  const hostOnly = `__Host-cis.wallet-session=${token}`;
  const get = (url: string, cookie: string) =>
    fetch(url, { headers: { Cookie: cookie, "X-Forwarded-Proto": "https", "X-Forwarded-For": uniqueAddress() } });

  const me = `${server.baseURL}/api/wallet/me/credentials`;
  await expectEnvelope(await get(me, plain), 401, "unauthorized");
  const list = await get(me, hostOnly);
  expect(list.status).toBe(200);
  const imageUrl = ((await list.json()) as { data: { imageUrl: string | null }[] }).data[0]!.imageUrl!;

  // A private credential's document and previews: its recipient's under the __Host- cookie only.
  const hide = await fetch(`${me}/${credential.publicId}`, {
    method: "PATCH",
    headers: { Cookie: hostOnly, "X-Forwarded-Proto": "https", "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress() },
    body: JSON.stringify({ visibility: "private" }),
  });
  expect(hide.status).toBe(200);
  const json = `${server.baseURL}/credentials/${credential.publicId}/credential.json`;
  const preview = `${server.baseURL}${new URL(imageUrl).pathname}`;
  for (const url of [json, preview]) {
    expect((await get(url, plain)).status, url).toBe(404);
    expect((await get(url, hostOnly)).status, url).toBe(200);
  }
});

test("an expired link signs nobody in and its page offers a new one", async ({ api, server }) => {
  const email = newEmail("expired");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Ada", email });
  const seen = seenWalletEmails(server.baseURL, email);
  expect((await askForWalletLink(server.baseURL, email)).status).toBe(202);
  const token = await nextWalletLinkToken(server.baseURL, email, seen);
  const expired = await runTsx("e2e/support/expire-wallet-links.ts", [email], {
    DATABASE_URL: server.databaseUrl,
    DATA_DIR: server.dataDir,
  });
  expect(expired.code, expired.stderr).toBe(0);
  const page = await (await fetch(`${server.baseURL}/wallet/sign-in?token=${encodeURIComponent(token)}`)).text();
  expect(page).toContain('data-testid="wallet-link-invalid"');
  expect(page).not.toContain('name="token"');
  const used = await useWalletLink(server.baseURL, token);
  expect(used.headers.get("location")).toBe("/wallet/sign-in?invalid=1");
  expect(walletCookieOf(used)).toBeNull();
});

test("202 with the same body for an unknown address and for drafts only, and no email is sent", async ({ api, server }) => {
  const known = newEmail("known");
  const unknown = newEmail("unknown");
  const draftOnly = newEmail("draft");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Known", email: known });
  await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Draft", email: draftOnly } } });

  const seen = seenWalletEmails(server.baseURL, known);
  const answers = await Promise.all([known, unknown, draftOnly].map((e) => askForWalletLink(server.baseURL, e)));
  const bodies = await Promise.all(answers.map((a) => a.text()));
  expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
  expect(new Set(bodies).size).toBe(1);
  await nextWalletLinkToken(server.baseURL, known, seen);
  await sleep(2000); // the known address's email is out: the others' would have been written by now
  expect(walletSignInEmails(server.baseURL, unknown)).toEqual([]);
  expect(walletSignInEmails(server.baseURL, draftOnly)).toEqual([]);
});

test("a bad email, a body that is not a JSON object and unknown fields are refused, and nothing is sent", async ({ server }) => {
  const post = (body: string, type = "application/json") =>
    fetch(`${server.baseURL}/api/wallet/sign-in`, {
      method: "POST",
      headers: { "Content-Type": type, "X-Forwarded-For": uniqueAddress() },
      body,
    });
  const bad = await expectEnvelope(await post(JSON.stringify({ email: "not-an-email" })), 400, "validation_error");
  expect(bad.error.details?.map((d) => d.path)).toEqual(["email"]);
  const missing = await expectEnvelope(await post("{}"), 400, "validation_error");
  expect(missing.error.details?.map((d) => d.path)).toEqual(["email"]);
  const extra = await expectEnvelope(await post(JSON.stringify({ email: newEmail("x"), admin: true })), 400, "validation_error");
  expect(extra.error.details?.map((d) => d.path)).toEqual(["admin"]);
  await expectEnvelope(await post("{not json"), 400, "invalid_json");
  await expectEnvelope(await post("[]"), 400, "invalid_json");
  await expectEnvelope(await post(JSON.stringify({ email: `${"a".repeat(20_000)}@example.com` })), 413, "payload_too_large");
  await sleep(500);
  expect(walletSignInEmails(server.baseURL, "not-an-email")).toEqual([]);
});

test("rate limits: per email whoever asks, and per client address whatever the email, with Retry-After", async ({ server }) => {
  const email = newEmail("limit");
  const perEmail: number[] = [];
  for (let i = 0; i < 6; i++) perEmail.push((await askForWalletLink(server.baseURL, email)).status);
  expect(perEmail).toEqual([202, 202, 202, 202, 202, 429]);
  const limited = await askForWalletLink(server.baseURL, email.toUpperCase());
  await expectEnvelope(limited.clone(), 429, "rate_limited");
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);

  const address = uniqueAddress();
  const perAddress: number[] = [];
  for (let i = 0; i < 11; i++)
    perAddress.push((await askForWalletLink(server.baseURL, newEmail("addr"), { "X-Forwarded-For": address })).status);
  expect(perAddress.slice(0, 10)).toEqual(Array(10).fill(202));
  expect(perAddress[10]).toBe(429);
});

test("every /api/wallet/me route answers 401 without a session, and every wallet route 403 to another site", async ({ api, server }) => {
  const publicId = randomUUID();
  const me = `${server.baseURL}/api/wallet/me/credentials`;
  await expectEnvelope(await fetch(me), 401, "unauthorized");
  await expectEnvelope(await fetch(me, { headers: { Cookie: "cis.wallet-session=forged" } }), 401, "unauthorized");
  await expectEnvelope(
    await fetch(`${me}/${publicId}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ visibility: "private" }),
    }),
    401,
    "unauthorized",
  );

  const email = newEmail("origin");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Ada", email });
  const cookie = await signInToWallet(server.baseURL, email);
  const evil = { Origin: "https://evil.example", Cookie: cookie };
  const refused = await expectEnvelope(await fetch(me, { headers: evil }), 403, "forbidden");
  expect(refused.error.message).toMatch(/other sites/);
  await expectEnvelope(await fetch(me, { headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" } }), 403, "forbidden");
  await expectEnvelope(await fetch(me, { headers: { Cookie: cookie, Origin: "null" } }), 403, "forbidden");
  await expectEnvelope(
    await fetch(`${server.baseURL}/api/wallet/sign-in`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example", "X-Forwarded-For": uniqueAddress() },
      body: JSON.stringify({ email }),
    }),
    403,
    "forbidden",
  );
  await expectEnvelope(await fetch(`${server.baseURL}/api/wallet/sign-out`, { method: "POST", headers: evil }), 403, "forbidden");
  // The session survived the refused sign-out; the site's own Origin is welcome.
  expect((await fetch(me, { headers: { Cookie: cookie, Origin: new URL(server.baseURL).origin } })).status).toBe(200);
});

test("a method a wallet or VC API route does not take gets 405 in the envelope with Allow", async ({ server }) => {
  const publicId = randomUUID();
  const routes: [string, string[], string[]][] = [
    ["/api/wallet/sign-in", ["POST"], ["GET", "PUT", "PATCH", "DELETE"]],
    ["/api/wallet/sign-in/link", ["POST"], ["GET", "DELETE"]],
    ["/api/wallet/sign-out", ["POST"], ["GET", "PUT"]],
    ["/api/wallet/events", ["POST"], ["GET", "PATCH"]],
    ["/api/wallet/verify", ["POST"], ["GET", "DELETE"]],
    ["/api/wallet/me/credentials", ["GET"], ["POST", "PUT", "PATCH", "DELETE"]],
    [`/api/wallet/me/credentials/${publicId}`, ["PATCH"], ["GET", "POST", "PUT", "DELETE"]],
    ["/api/wallet/me/profile", ["GET", "PATCH"], ["POST", "PUT", "DELETE"]],
    ["/api/wallet/me/download", ["GET"], ["POST", "DELETE"]],
    [`/api/wallet/me/credentials/${publicId}/correction-requests`, ["POST", "GET"], ["PUT", "DELETE"]],
    [`/api/wallet/me/credentials/${publicId}/credential-offer`, ["POST"], ["GET", "PATCH"]],
    ["/vc-api/credentials/issue", ["POST"], ["GET", "DELETE"]],
    ["/vc-api/credentials/status", ["POST"], ["GET", "PUT"]],
    ["/vc-api/credentials/verify", ["POST"], ["GET", "PATCH"]],
    ["/vc-api/presentations/verify", ["POST"], ["GET", "DELETE"]],
  ];
  for (const [path, allowed, refused] of routes) {
    for (const method of refused) {
      const res = await fetch(`${server.baseURL}${path}`, { method, headers: { "X-Forwarded-For": uniqueAddress() } });
      const body = await expectEnvelope(res, 405, "method_not_allowed");
      expect(body.error.message).toContain(method);
      const allow = (res.headers.get("allow") ?? "").split(",").map((m) => m.trim());
      for (const m of allowed) expect(allow, `${method} ${path}`).toContain(m);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  }
});
