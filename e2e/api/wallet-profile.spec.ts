// Public profiles (docs/api.md, Public profiles): GET and PATCH {WALLET_URL}/api/wallet/me/profile for
// the signed-in recipient, and the page {WALLET_URL}/profiles/<handle>, public only when its owner
// says so and listing only their public, unrevoked credentials, never anyone else's.
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import { signInToWallet } from "../support/wallet-session";

type Profile = { handle: string | null; displayName: string | null; public: boolean; url: string | null };

const uniqueHandle = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const email = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** A recipient with one issued credential, signed in to the wallet. */
async function recipient(api: APIRequestContext, baseURL: string, label: string, groupId?: string) {
  const address = email(label);
  const group = groupId ?? (await walletGroup(api, { name: `Course of ${label}` })).id;
  const credential = await issueCredential(api, group, { name: `Person ${label}`, email: address });
  const cookie = await signInToWallet(baseURL, address);
  return { email: address, cookie, credential, groupId: group };
}

function call(
  baseURL: string,
  path: string,
  init: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return fetch(`${baseURL}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "X-Forwarded-For": uniqueAddress(),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
}

const patchProfile = (baseURL: string, cookie: string, body: unknown) =>
  call(baseURL, "/api/wallet/me/profile", { method: "PATCH", cookie, body });

async function expectOk(response: Response): Promise<Profile> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Profile;
}

/** Makes a credential private, as its recipient does in the wallet. */
async function makePrivate(baseURL: string, cookie: string, publicId: string): Promise<void> {
  const response = await call(baseURL, `/api/wallet/me/credentials/${publicId}`, {
    method: "PATCH",
    cookie,
    body: { visibility: "private" },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function expectValidation(response: Response, paths: string[]) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: { code: string; details: { path: string }[] } };
  expect(body.error.code).toBe("validation_error");
  expect(body.error.details.map((d) => d.path).sort()).toEqual([...paths].sort());
}

async function getProfile(baseURL: string, cookie: string): Promise<Profile> {
  const response = await call(baseURL, "/api/wallet/me/profile", { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as Profile;
}

/** Attribute text as an HTML parser reads it: the entities React and Next write, decoded. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(quot|amp|lt|gt|#x27|#39);/g,
    (_, e: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", "#x27": "'", "#39": "'" })[e]!,
  );
}

/** The content of the page's <meta property|name="key"> tag, or null. */
function metaOf(html: string, key: string): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/g) ?? []) {
    const name = /\b(?:property|name)="([^"]*)"/.exec(tag)?.[1];
    if (name === key) return decodeEntities(/\bcontent="([^"]*)"/.exec(tag)?.[1] ?? "");
  }
  return null;
}

test("without a session every profile endpoint is 401, and another site's request is 403", async ({ server }) => {
  for (const method of ["GET", "PATCH"]) {
    const response = await call(server.baseURL, "/api/wallet/me/profile", {
      method,
      body: method === "PATCH" ? { public: false } : undefined,
    });
    expect(response.status, method).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  }
  const stale = await call(server.baseURL, "/api/wallet/me/profile", { cookie: "cis.wallet-session=not-a-session" });
  expect(stale.status).toBe(401);
});

test("a profile starts private and empty; bad input is a validation_error that writes nothing", async ({ api, server }) => {
  const me = await recipient(api, server.baseURL, "fresh");
  expect(await getProfile(server.baseURL, me.cookie)).toEqual({ handle: null, displayName: null, public: false, url: null });

  for (const handle of ["ab", "a".repeat(41), "under_score", "spa ce", "dot.ted", "ümlaut", "\u212Aelvin", "", 42, null]) {
    await expectValidation(await patchProfile(server.baseURL, me.cookie, { handle, displayName: "Fine", public: true }), ["handle"]);
  }
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { displayName: "  " }), ["displayName"]);
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { displayName: "x".repeat(101) }), ["displayName"]);
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { displayName: "Bidi\u202Eevil" }), ["displayName"]);
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { public: "yes" }), ["public"]);
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { nickname: "x" }), ["nickname"]);
  // Public needs both a handle and a display name.
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { public: true }), ["handle", "displayName"]);
  await expectValidation(await patchProfile(server.baseURL, me.cookie, { handle: uniqueHandle("half"), public: true }), ["displayName"]);
  const notJson = await patchProfile(server.baseURL, me.cookie, "{nope");
  expect(notJson.status).toBe(400);
  expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe("invalid_json");

  expect(await getProfile(server.baseURL, me.cookie)).toEqual({ handle: null, displayName: null, public: false, url: null });
});

test("handles fold capitals, are unique across recipients, and a PATCH keeps what it does not name", async ({ api, server }) => {
  const ada = await recipient(api, server.baseURL, "ada");
  const bob = await recipient(api, server.baseURL, "bob");
  const handle = uniqueHandle("ada");

  const saved = await patchProfile(server.baseURL, ada.cookie, { handle: handle.toUpperCase(), displayName: "Ada Lovelace" });
  expect(saved.status).toBe(200);
  expect(await saved.json()).toEqual({ handle, displayName: "Ada Lovelace", public: false, url: null });

  // Taken, whatever its case: a validation_error on handle, and Bob's profile is untouched.
  await expectValidation(await patchProfile(server.baseURL, bob.cookie, { handle }), ["handle"]);
  await expectValidation(await patchProfile(server.baseURL, bob.cookie, { handle: handle.toUpperCase(), displayName: "Bob" }), ["handle"]);
  expect(await getProfile(server.baseURL, bob.cookie)).toEqual({ handle: null, displayName: null, public: false, url: null });

  // Two recipients claiming one new handle at once: exactly one gets it.
  const contested = uniqueHandle("race");
  const [first, second] = await Promise.all([
    patchProfile(server.baseURL, ada.cookie, { handle: contested }),
    patchProfile(server.baseURL, bob.cookie, { handle: contested }),
  ]);
  expect([first.status, second.status].sort()).toEqual([200, 400]);
  const winner = first.status === 200 ? ada : bob;
  await patchProfile(server.baseURL, winner.cookie, { handle: uniqueHandle("after") });

  const published = await patchProfile(server.baseURL, ada.cookie, { handle, public: true });
  expect(published.status).toBe(200);
  expect(await published.json()).toEqual({
    handle,
    displayName: "Ada Lovelace",
    public: true,
    url: `http://localhost:${server.port}/profiles/${handle}`,
  });
});

test("the public page lists only the owner's public, unrevoked credentials, and is 404 unless public", async ({ api, server }) => {
  const group = await walletGroup(api, { name: "Shown Course" });
  const secretGroup = await walletGroup(api, { name: "Secret Course Zeta" });
  const revokedGroup = await walletGroup(api, { name: "Revoked Course Omega" });
  const owner = await recipient(api, server.baseURL, "owner", group.id);
  const hidden = await issueCredential(api, secretGroup.id, { name: "Person owner", email: owner.email.toUpperCase() });
  const revoked = await issueCredential(api, revokedGroup.id, { name: "Person owner", email: owner.email });
  expect((await api.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: "Issued by mistake" } })).status()).toBe(200);
  const stranger = await recipient(api, server.baseURL, "stranger", group.id);
  const handle = uniqueHandle("owner");
  // A display name that would be markup if it were not treated as text.
  const displayName = `Ada "<script>alert(1)</script>" & Co`;

  await expectOk(await patchProfile(server.baseURL, owner.cookie, { handle, displayName }));
  const privateProfile = await call(server.baseURL, `/profiles/${handle}`);
  expect(privateProfile.status).toBe(404);
  const unknown = await call(server.baseURL, `/profiles/${uniqueHandle("nobody")}`);
  expect(unknown.status).toBe(404);
  // Not public and unknown look the same.
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  expect(titleOf(await privateProfile.text())).toBe(titleOf(await unknown.text()));

  await makePrivate(server.baseURL, owner.cookie, hidden.publicId);
  await expectOk(await patchProfile(server.baseURL, owner.cookie, { public: true }));

  const response = await call(server.baseURL, `/profiles/${handle.toUpperCase()}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).not.toContain("<script>alert(1)</script>");
  for (const absent of [hidden.publicId, revoked.publicId, stranger.credential.publicId, "Secret Course Zeta", "Revoked Course Omega"]) {
    expect(html, absent).not.toContain(absent);
  }
  expect(html).toContain(owner.credential.publicId);

  const heading = /<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? "";
  expect(decodeEntities(heading.replace(/<[^>]+>/g, ""))).toBe(displayName);
  const cards = html.match(/data-public-id="[^"]+"/g) ?? [];
  expect(cards).toEqual([`data-public-id="${owner.credential.publicId}"`]);
  expect(html).toContain(`href="http://localhost:${server.port}/credentials/${owner.credential.publicId}"`);
  expect(html).toContain("Shown Course");
  expect(metaOf(html, "og:title")).toBe(displayName);
  expect(metaOf(html, "twitter:title")).toBe(displayName);
  expect(metaOf(html, "og:description")).toMatch(/^1 public credential/);
  expect(metaOf(html, "og:image")).toMatch(/\/previews\/.+\.png$/);
  expect(metaOf(html, "twitter:image")).toBe(metaOf(html, "og:image"));
  expect(metaOf(html, "og:url")).toBe(`http://localhost:${server.port}/profiles/${handle}`);

  // Back to private: 404 again at once.
  await expectOk(await patchProfile(server.baseURL, owner.cookie, { public: false }));
  expect((await call(server.baseURL, `/profiles/${handle}`)).status).toBe(404);
});

test("a public profile without public credentials says so and takes the instance's default card image", async ({ api, server }) => {
  const me = await recipient(api, server.baseURL, "quiet");
  await makePrivate(server.baseURL, me.cookie, me.credential.publicId);
  const handle = uniqueHandle("quiet");
  await expectOk(await patchProfile(server.baseURL, me.cookie, { handle, displayName: "Quiet Person", public: true }));
  const html = await (await call(server.baseURL, `/profiles/${handle}`)).text();
  expect(html).toContain("No public credentials yet");
  expect(metaOf(html, "og:image")).toBe(`http://localhost:${server.port}/profile-card.png`);
  expect(metaOf(html, "og:description")).toMatch(/^No public credentials yet/);
  const image = await fetch(`${server.baseURL}/profile-card.png`);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/png");
  expect(html).not.toContain(me.credential.publicId);
});

test("one recipient's session never reads or changes another's profile", async ({ api, server }) => {
  const ada = await recipient(api, server.baseURL, "own");
  const eve = await recipient(api, server.baseURL, "eve");
  const handle = uniqueHandle("own");
  await expectOk(await patchProfile(server.baseURL, ada.cookie, { handle, displayName: "Ada" }));
  expect(await getProfile(server.baseURL, eve.cookie)).toEqual({ handle: null, displayName: null, public: false, url: null });
  await expectOk(await patchProfile(server.baseURL, eve.cookie, { displayName: "Eve", handle: uniqueHandle("eve") }));
  expect((await getProfile(server.baseURL, ada.cookie)).displayName).toBe("Ada");
  // Another site's page cannot change it with the recipient's cookie.
  const crossSite = await call(server.baseURL, "/api/wallet/me/profile", {
    method: "PATCH",
    cookie: ada.cookie,
    body: { public: true },
    headers: { Origin: "https://evil.example" },
  });
  expect(crossSite.status).toBe(403);
  expect((await getProfile(server.baseURL, ada.cookie)).public).toBe(false);
});
