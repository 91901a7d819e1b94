// The signed-in recipient's own credentials (docs/api.md, Recipient wallet): GET /api/wallet/me/credentials
// lists every issued, expired and revoked credential addressed to the session's email across
// organizations, newest first, with filters and cursor pages; PATCH .../{publicId} sets who may open
// one. A private credential's wallet page, credential.json, images and previews answer 404 to everyone
// but its signed-in recipient, and documents already handed out keep verifying.
import { randomUUID } from "node:crypto";
import { test, expect } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import {
  draftCredential,
  expiredCredential,
  issueCredential,
  scheduledCredential,
  uniqueAddress,
  walletGroup,
  type CredentialDesign,
} from "../support/wallet-helpers";
import { signInToWallet } from "../support/wallet-session";

type Item = {
  publicId: string;
  title: string;
  issuer: { name: string; domain: string | null };
  status: string;
  revokedAt: string | null;
  revocationReason: string | null;
  issueDate: string;
  expiryDate: string | null;
  imageUrl: string | null;
  visibility: string;
};
type Page = { data: Item[]; pagination: { prev: string | null; next: string | null } };
type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

// Each test renders previews (a private credential's are fetched three times over) on a server shared
// with every other worker.
test.describe.configure({ timeout: 90_000 });

const ITEM_KEYS = [
  "expiryDate",
  "imageUrl",
  "issueDate",
  "issuer",
  "publicId",
  "revocationReason",
  "revokedAt",
  "status",
  "title",
  "visibility",
];

/** A wallet request from a client address of its own (per-address limits do not couple tests). */
function walletFetch(
  baseURL: string,
  path: string,
  init: { cookie?: string; method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return fetch(`${baseURL}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "X-Forwarded-For": uniqueAddress(),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body,
  });
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  return JSON.parse(text) as T;
}

test("the list: every shown credential of the email in every organization, newest first, exactly the contract's fields", async ({
  api,
  client,
  newOrg,
  server,
}) => {
  const email = `list.${randomUUID().slice(0, 8)}@example.com`;
  const other = await newOrg();
  const otherApi = await client({ token: other.token });
  const group = await walletGroup(api, { name: "Data Science" });
  const otherGroup = await walletGroup(otherApi, { name: "Safety Badge" });

  const first = await issueCredential(api, group.id, { name: "Lin", email: email.toUpperCase() });
  const expired = await expiredCredential(otherApi, otherGroup.id, { name: "Lin", email });
  const revoked = await issueCredential(api, group.id, { name: "Lin", email });
  await expectStatus(await api.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: "Issued <by> mistake" } }), 200);
  const latest = await issueCredential(otherApi, otherGroup.id, { name: "Lin", email });
  await draftCredential(api, group.id, { name: "Lin", email });
  await scheduledCredential(api, group.id, { name: "Lin", email });
  await issueCredential(api, group.id, { name: "Someone else", email: `x.${email}` });

  const cookie = await signInToWallet(server.baseURL, email);
  const page = await json<Page>(await walletFetch(server.baseURL, "/api/wallet/me/credentials", { cookie }), 200);
  expect(page.data.map((c) => c.publicId)).toEqual([latest.publicId, revoked.publicId, expired.publicId, first.publicId]);
  expect(page.pagination).toEqual({ prev: null, next: null });
  for (const item of page.data) {
    expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(item.imageUrl).toMatch(/^http:\/\/localhost:\d+\/previews\/[0-9a-f]{40}\.png$/);
    expect(item.visibility).toBe("public");
  }
  const byId = new Map(page.data.map((c) => [c.publicId, c]));
  expect(byId.get(first.publicId)).toMatchObject({
    title: "Data Science",
    status: "issued",
    revokedAt: null,
    revocationReason: null,
    issueDate: first.issueDate,
  });
  expect(byId.get(first.publicId)!.issuer.domain).toBeNull();
  expect(byId.get(expired.publicId)).toMatchObject({ title: "Safety Badge", status: "expired", expiryDate: "2021-06-30" });
  expect(byId.get(revoked.publicId)).toMatchObject({ status: "issued", revocationReason: "Issued <by> mistake" });
  expect(byId.get(revoked.publicId)!.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  // The preview the list names is the credential's own image.
  const image = await fetch(byId.get(first.publicId)!.imageUrl!);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/png");

  // Filters: issuer by slug, status (revoked apart from the others), both together.
  const ids = async (query: string) =>
    (await json<Page>(await walletFetch(server.baseURL, `/api/wallet/me/credentials?${query}`, { cookie }), 200)).data.map(
      (c) => c.publicId,
    );
  expect(await ids(`issuer=${other.slug}`)).toEqual([latest.publicId, expired.publicId]);
  expect(await ids("status=revoked")).toEqual([revoked.publicId]);
  expect(await ids("status=expired")).toEqual([expired.publicId]);
  expect(await ids("status=issued")).toEqual([latest.publicId, first.publicId]);
  expect(await ids(`status=expired&issuer=${other.slug}`)).toEqual([expired.publicId]);
  expect(await ids("issuer=no-such-organization")).toEqual([]);

  // Pages of 1, forwards and back.
  const seen: string[] = [];
  let cursor: string | null = null;
  let last: Page | null = null;
  do {
    last = await json<Page>(
      await walletFetch(server.baseURL, `/api/wallet/me/credentials?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
        cookie,
      }),
      200,
    );
    seen.push(...last.data.map((c) => c.publicId));
    cursor = last.pagination.next;
  } while (cursor);
  expect(seen).toEqual(page.data.map((c) => c.publicId));
  const back = await json<Page>(
    await walletFetch(server.baseURL, `/api/wallet/me/credentials?limit=1&cursor=${encodeURIComponent(last.pagination.prev!)}`, { cookie }),
    200,
  );
  expect(back.data.map((c) => c.publicId)).toEqual([expired.publicId]);

  // Bad queries: the envelope, naming the field.
  for (const [query, path] of [
    ["status=draft", "status"],
    ["limit=0", "limit"],
    ["cursor=forged", "cursor"],
    ["sort=name", "sort"],
    ["status=issued&status=expired", "status"],
  ] as const) {
    const body = await json<ErrorBody>(await walletFetch(server.baseURL, `/api/wallet/me/credentials?${query}`, { cookie }), 400);
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details?.map((d) => d.path)).toContain(path);
  }
});

test("visibility: only the recipient's own credential, and a private one is 404 to everyone else while its documents keep verifying", async ({
  api,
  server,
}) => {
  const email = `private.${randomUUID().slice(0, 8)}@example.com`;
  const strangerEmail = `stranger.${randomUUID().slice(0, 8)}@example.com`;
  const group = await walletGroup(api, { badge: true });
  const mine = await issueCredential(api, group.id, { name: "Private Person", email });
  const theirs = await issueCredential(api, group.id, { name: "Stranger", email: strangerEmail });
  const designs = (await expectStatus(await api.get(`/v1/credentials/${mine.id}/designs`), 200)) as CredentialDesign[];
  const previews = designs.flatMap((d) => d.previews.map((p) => p.url));
  const designId = designs[0]!.id;
  const handedOut = await (await fetch(`${server.baseURL}/credentials/${mine.publicId}/credential.json`)).text();

  const cookie = await signInToWallet(server.baseURL, email);
  const stranger = await signInToWallet(server.baseURL, strangerEmail);
  const patch = (publicId: string, body: unknown, who = cookie) =>
    walletFetch(server.baseURL, `/api/wallet/me/credentials/${publicId}`, { cookie: who, method: "PATCH", body: JSON.stringify(body) });

  // Another recipient's credential, an unknown one and a malformed id are all the same 404.
  for (const publicId of [theirs.publicId, randomUUID(), "not-a-uuid"]) {
    const body = await json<ErrorBody>(await patch(publicId, { visibility: "private" }), 404);
    expect(body.error.code).toBe("not_found");
  }
  const bad = await json<ErrorBody>(await patch(mine.publicId, { visibility: "hidden" }), 400);
  expect(bad.error).toMatchObject({ code: "validation_error", details: [{ path: "visibility" }] });
  expect((await json<ErrorBody>(await patch(mine.publicId, { visibility: "private", extra: 1 }), 400)).error.details?.[0]?.path).toBe(
    "extra",
  );
  const notJson = await walletFetch(server.baseURL, `/api/wallet/me/credentials/${mine.publicId}`, { cookie, method: "PATCH", body: "{" });
  expect((await json<ErrorBody>(notJson, 400)).error.code).toBe("invalid_json");
  // Nothing was written by the refusals.
  expect((await fetch(`${server.baseURL}/credentials/${mine.publicId}`)).status).toBe(200);

  const changed = await json<Item>(await patch(mine.publicId, { visibility: "private" }), 200);
  expect(changed).toMatchObject({ publicId: mine.publicId, visibility: "private" });

  const urls = [
    `${server.baseURL}/credentials/${mine.publicId}`,
    `${server.baseURL}/credentials/${mine.publicId}/credential.json`,
    `${server.baseURL}/credentials/${mine.publicId}/qr.png`,
    `${server.baseURL}/credentials/${mine.publicId}/qr.svg`,
    `${server.baseURL}/credentials/${mine.publicId}/badge.png?design=${designId}`,
    `${server.baseURL}/credentials/${mine.publicId}/credential.pdf?design=${designId}`,
    ...previews,
  ];
  for (const url of urls) {
    expect((await fetch(url)).status, `anonymous ${url}`).toBe(404);
    expect((await fetch(url, { headers: { Cookie: stranger } })).status, `stranger ${url}`).toBe(404);
    const own = await fetch(url, { headers: { Cookie: cookie } });
    expect(own.status, `recipient ${url}`).toBe(200);
    expect(own.headers.get("cache-control") ?? "", url).not.toMatch(/public/);
  }
  // Checking it is no way around: the wallet page's Verify answers its recipient only, and /verify
  // given its address finds nothing there, as a fetch of that address would (no name in either).
  const walletVerify = (who?: string) =>
    fetch(`${server.baseURL}/api/wallet/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress(), ...(who ? { Cookie: who } : {}) },
      body: JSON.stringify({ publicId: mine.publicId, triggeredBy: "guest" }),
    });
  for (const who of [undefined, stranger]) {
    const refused = await walletVerify(who);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain("Private Person");
  }
  expect((await json<{ verdict: string }>(await walletVerify(cookie), 200)).verdict).toBe("valid");
  // Nor can anyone else record events about it (its page is nobody else's to view or share).
  const walletEvent = (who?: string) =>
    fetch(`${server.baseURL}/api/wallet/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress(), ...(who ? { Cookie: who } : {}) },
      body: JSON.stringify({ publicId: mine.publicId, eventType: "credential_viewed", triggeredBy: "guest" }),
    });
  expect((await walletEvent()).status).toBe(404);
  expect((await walletEvent(stranger)).status).toBe(404);
  expect((await walletEvent(cookie)).status).toBe(201);
  const walletAddress = `http://localhost:${new URL(server.baseURL).port}/credentials/${mine.publicId}`;
  for (const url of [walletAddress, `${walletAddress}/credential.json`]) {
    const byUrl = await fetch(`${server.baseURL}/api/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress() },
      body: JSON.stringify({ url }),
    });
    const text = await byUrl.text();
    expect(text).not.toContain("Private Person");
    expect((JSON.parse(text) as { verdict: string }).verdict, url).not.toBe("valid");
  }

  // The 404 page says nothing about the credential (no OG tags, no name).
  const hidden = await (await fetch(urls[0]!)).text();
  expect(hidden).not.toContain("Private Person");
  expect(hidden).not.toContain("og:title");
  // The signed-in recipient's page is the recipient's view without ?recipient=true.
  expect(await (await fetch(urls[0]!, { headers: { Cookie: cookie } })).text()).toContain("Private Person");

  // A document handed out before still verifies: the status list is untouched.
  const report = (await (
    await fetch(`${server.baseURL}/api/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress() },
      body: JSON.stringify({ json: handedOut }),
    })
  ).json()) as { verdict: string };
  expect(report.verdict).toBe("valid");

  // Public again: everyone sees it again.
  expect((await json<Item>(await patch(mine.publicId, { visibility: "public" }), 200)).visibility).toBe("public");
  for (const url of urls) expect((await fetch(url)).status, url).toBe(200);
});
