// The public faces are answered from each process's cache (lib/http-server/public-faces.ts), and a
// change made through one process is seen by the very next request to any other: two web processes
// on one PostgreSQL database, both caches warmed (each face read twice from each process), then a
// change through process A and an immediate read from process B (and A). Revocation, privacy, an
// edit, a credential issued (the issuer's profile page counts it), the organization's branding, a key
// rotation and a deletion.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { execSql } from "../support/databases";
import { expectStatus, makePng } from "../support/api-helpers";
import { newDataDir, startOwnServer, uniqueEmail, type Credential, type OwnServer } from "../support/credentials";
import { createOrgs, runTsx } from "../support/state";
import { issueCredential, walletGroup } from "../support/wallet-helpers";

type Page = { status: number; body: string };

async function read(baseURL: string, pathname: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(baseURL + pathname, { headers });
  return { status: res.status, body: await res.text() };
}

/** Reads a face twice from each process: the first read fills that process's cache, the second is answered from it. */
async function warm(servers: OwnServer[], pathname: string, headers: Record<string, string> = {}): Promise<Page[]> {
  const pages: Page[] = [];
  for (const s of servers) for (let i = 0; i < 2; i++) pages.push(await read(s.baseURL, pathname, headers));
  return pages;
}

/** Whether bit `index` of a Bitstring Status List credential is set (gzip, multibase base64url; the first bit is the leftmost). */
function bitIsSet(statusList: { credentialSubject: { encodedList: string } }, index: number): boolean {
  const encoded = statusList.credentialSubject.encodedList;
  expect(encoded.startsWith("u")).toBe(true);
  const bits = gunzipSync(Buffer.from(encoded.slice(1), "base64url"));
  return ((bits[Math.floor(index / 8)]! >> (7 - (index % 8))) & 1) === 1;
}

test.describe("the public faces' cache across processes", () => {
  test.skip(
    ({ backend }) => backend !== "postgres",
    "several processes share one database on PostgreSQL (docs/operating.md, Several processes)",
  );

  test("revoke, make private, edit, rebrand, rotate and delete through one process: the other answers it at once", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.setTimeout(240_000);
    const databaseUrl = await scratchDatabase();
    const label = `pcache-${randomBytes(3).toString("hex")}`;
    const setupDir = newDataDir(e2eState.runDir, `${label}-setup`);
    const [org] = await createOrgs({ databaseUrl, dataDir: setupDir }, label, 0, 1);
    const appSecret = randomBytes(32).toString("hex");
    const servers: OwnServer[] = [];
    const start = (name: string) =>
      startOwnServer(
        {
          DATABASE_URL: databaseUrl,
          APP_SECRET: appSecret,
          CIS_BACKGROUND: "off",
          DATA_DIR: newDataDir(e2eState.runDir, `${label}-${name}`),
        },
        path.join(e2eState.runDir, `${label}-${name}-${testInfo.project.name}.log`),
      ).then((s) => (servers.push(s), s));
    try {
      const [a, b] = await Promise.all([start("web-a"), start("web-b")]);
      const apiA: APIRequestContext = await client({ baseURL: a.baseURL, token: org!.token });
      const group = await walletGroup(apiA, { name: "Cache Course" });
      const issue = (name: string, email = uniqueEmail("pcache")): Promise<Credential> => issueCredential(apiA, group.id, { name, email });
      const both = [a, b];

      // Revocation: the wallet page says so first, and the status list has the bit set, on both.
      const revoked = await issue("Rita Revoked");
      const page = `/credentials/${revoked.publicId}`;
      for (const p of await warm(both, page)) {
        expect(p.status).toBe(200);
        expect(p.body).toContain('data-state="valid"');
      }
      const document = JSON.parse((await warm(both, `${page}/credential.json`))[3]!.body) as {
        credentialStatus: { statusListCredential: string; statusListIndex: string };
      };
      const listPath = new URL(document.credentialStatus.statusListCredential).pathname;
      const index = Number(document.credentialStatus.statusListIndex);
      for (const p of await warm(both, listPath)) expect(bitIsSet(JSON.parse(p.body), index)).toBe(false);
      await expectStatus(await apiA.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: "Cache test" } }), 200);
      for (const s of [b, a]) {
        const after = await read(s.baseURL, page);
        expect(after.status).toBe(200);
        expect(after.body).toContain('data-testid="revoked-notice"');
        expect(after.body).toContain('data-state="revoked"');
        expect(after.body).not.toContain('data-state="valid"');
        expect((await read(s.baseURL, `${page}/credential.json`)).status).toBe(200);
        expect(bitIsSet(JSON.parse((await read(s.baseURL, listPath)).body), index)).toBe(true);
      }

      // Privacy: the recipient makes it private through process A; both answer 404 to everyone else
      // and the page to the recipient, whose view is never answered to a guest.
      const email = uniqueEmail("pcache-private");
      const hidden = await issue("Priya Private", email);
      const hiddenPage = `/credentials/${hidden.publicId}`;
      for (const p of [...(await warm(both, hiddenPage)), ...(await warm(both, `${hiddenPage}/credential.json`))])
        expect(p.status).toBe(200);
      const token = randomBytes(32).toString("base64url");
      await execSql(
        databaseUrl,
        `INSERT INTO "WalletSession" ("id", "email", "tokenHash", "createdAt", "expiresAt") VALUES ('wses_${randomUUID().replaceAll("-", "")}', '${email}', '${createHash("sha256").update(token).digest("hex")}', now(), now() + interval '1 day')`,
      );
      const cookie = { Cookie: `cis.wallet-session=${token}` };
      for (const p of await warm(both, hiddenPage, cookie)) expect(p.status).toBe(200);
      const made = await fetch(`${a.baseURL}/api/wallet/me/credentials/${hidden.publicId}`, {
        method: "PATCH",
        headers: { ...cookie, "Content-Type": "application/json" },
        body: JSON.stringify({ visibility: "private" }),
      });
      expect(made.status).toBe(200);
      for (const s of [b, a]) {
        expect((await read(s.baseURL, hiddenPage)).status).toBe(404);
        expect((await read(s.baseURL, `${hiddenPage}/credential.json`)).status).toBe(404);
        const own = await read(s.baseURL, hiddenPage, cookie);
        expect(own.status).toBe(200);
        expect(own.body).toContain("Priya Private");
        // And a guest after the recipient's visit: still the 404, never the recipient's copy.
        expect((await read(s.baseURL, hiddenPage)).status).toBe(404);
      }

      // An edit: the new name on the page and in the signed document of both.
      const edited = await issue("Eddie Before");
      const editedPage = `/credentials/${edited.publicId}`;
      for (const p of await warm(both, editedPage)) expect(p.body).toContain("Eddie Before");
      for (const p of await warm(both, `${editedPage}/credential.json`)) expect(p.body).toContain("Eddie Before");
      await expectStatus(
        await apiA.patch(`/v1/credentials/${edited.id}`, { data: { recipient: { id: edited.recipient!.id, name: "Eddie After" } } }),
        200,
      );
      for (const s of [b, a]) {
        const after = await read(s.baseURL, editedPage);
        expect(after.body).toContain("Eddie After");
        expect(after.body).not.toContain("Eddie Before");
        const doc = await read(s.baseURL, `${editedPage}/credential.json`);
        expect(doc.body).toContain("Eddie After");
        expect(doc.body).not.toContain("Eddie Before");
      }

      // The issuer's profile page counts the credentials issued: one more through A, on both at once.
      const issuerPage = `/organizations/${org!.slug}`;
      const issuedCount = (body: string) => Number(/data-testid="credentials-issued">([\d,]+)</.exec(body)?.[1]?.replaceAll(",", ""));
      const counted = issuedCount((await warm(both, issuerPage))[3]!.body);
      expect(counted).toBeGreaterThan(0);
      await issue("Ida Issued");
      for (const s of [b, a]) expect(issuedCount((await read(s.baseURL, issuerPage)).body)).toBe(counted + 1);

      // The organization's branding (its logo, set with the CLI, another process again): on both pages.
      for (const p of await warm(both, editedPage)) expect(p.body).not.toMatch(/<img[^>]+\/logo"/);
      for (const p of await warm(both, issuerPage)) expect(p.body).not.toMatch(/<img[^>]+\/logo"/);
      const logoFile = path.join(setupDir, "logo.png");
      writeFileSync(logoFile, makePng(120, 40));
      const cli = await runTsx("scripts/cli.ts", ["org", "logo", org!.slug, logoFile], {
        DATABASE_URL: databaseUrl,
        DATA_DIR: setupDir,
        APP_SECRET: appSecret,
      });
      expect(cli.code, cli.stderr).toBe(0);
      for (const s of [b, a]) {
        expect((await read(s.baseURL, editedPage)).body).toMatch(/<img[^>]+\/logo"/);
        expect((await read(s.baseURL, issuerPage)).body).toMatch(/<img[^>]+\/logo"/);
      }

      // A key rotation (the CLI): the new key in the DID document of both.
      const didPath = `/organizations/${org!.slug}/did.json`;
      const keysBefore = (JSON.parse((await warm(both, didPath))[3]!.body) as { verificationMethod: unknown[] }).verificationMethod.length;
      const rotated = await runTsx("scripts/cli.ts", ["org", "rotate-key", org!.slug], {
        DATABASE_URL: databaseUrl,
        DATA_DIR: setupDir,
        APP_SECRET: appSecret,
      });
      expect(rotated.code, rotated.stderr).toBe(0);
      for (const s of [b, a]) {
        const keys = (JSON.parse((await read(s.baseURL, didPath)).body) as { verificationMethod: { id: string }[] }).verificationMethod;
        expect(keys.length).toBe(keysBefore + 1);
        // The CLI names the key under its own PUBLIC_URL: compare the key's own part.
        expect(keys.map((k) => k.id.split("#")[1])).toContain(rotated.stdout.trim().split("#")[1]);
      }

      // A deletion: 404 on both, page and document.
      const deleted = await issue("Dora Deleted");
      const deletedPage = `/credentials/${deleted.publicId}`;
      for (const p of [...(await warm(both, deletedPage)), ...(await warm(both, `${deletedPage}/credential.json`))])
        expect(p.status).toBe(200);
      expect((await apiA.delete(`/v1/credentials/${deleted.id}`)).status()).toBe(204);
      for (const s of [b, a]) {
        expect((await read(s.baseURL, deletedPage)).status).toBe(404);
        expect((await read(s.baseURL, `${deletedPage}/credential.json`)).status).toBe(404);
      }
    } finally {
      await Promise.all(servers.map((s) => s.kill()));
    }
  });
});

test("documents carry an ETag and answer 304 to a client that has them; pages get a fresh nonce each time", async ({
  api,
  org,
  server,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Etta Tag", email: uniqueEmail("etag") });
  const base = `http://localhost:${server.port}`;
  const documents = [
    `/credentials/${credential.publicId}/credential.json`,
    `/organizations/${org.slug}/did.json`,
    `/.well-known/openid-credential-issuer/organizations/${org.slug}`,
  ];
  for (const pathname of documents) {
    await fetch(base + pathname); // kept
    const full = await fetch(base + pathname);
    expect(full.status, pathname).toBe(200);
    const etag = full.headers.get("etag");
    expect(etag, pathname).toMatch(/^"[0-9a-f]{40}"$/);
    const body = await full.text();
    const again = await fetch(base + pathname, { headers: { "If-None-Match": etag! } });
    expect(again.status, pathname).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe(full.headers.get("cache-control"));
    expect(await again.text()).toBe("");
    const zipped = await fetch(base + pathname, { headers: { "Accept-Encoding": "gzip" } });
    expect(await zipped.text()).toBe(body); // fetch decodes it
  }
  const statusUrl = (JSON.parse(await (await fetch(base + documents[0]!)).text()) as { credentialStatus: { statusListCredential: string } })
    .credentialStatus.statusListCredential;
  const list = await fetch(base + new URL(statusUrl).pathname);
  const maxAge = Number(/max-age=(\d+)/.exec(list.headers.get("cache-control") ?? "")?.[1]);
  expect(maxAge).toBeGreaterThan(0);
  expect(maxAge).toBeLessThanOrEqual(300);

  const page = `${base}/credentials/${credential.publicId}`;
  const nonces = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const res = await fetch(page);
    const policyNonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    const html = await res.text();
    expect(policyNonce).toBeTruthy();
    // Every script tag carries this answer's own nonce, and no other.
    const scriptNonces = new Set([...html.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((m) => m[1]));
    expect([...scriptNonces]).toEqual([policyNonce]);
    expect(res.headers.get("etag")).toBeNull();
    nonces.add(policyNonce!);
  }
  expect(nonces.size).toBe(3);
});

test("a page kept from the recipient's email link hands guests neither the recipient's mark nor click ids; languages key it", async ({
  api,
  server,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Quinn Query", email: uniqueEmail("query") });
  const page = `http://localhost:${server.port}/credentials/${credential.publicId}`;
  // The first visit is the email's link, with a campaign's tags: the page rendered for it is kept.
  const first = await fetch(`${page}?recipient=true&utm_source=newsletter&fbclid=abc123`, { headers: { "Accept-Language": "en" } });
  expect(first.status).toBe(200);
  for (const html of [await first.text(), await (await fetch(page, { headers: { "Accept-Language": "en" } })).text()]) {
    expect(html).not.toMatch(/recipient=true|utm_source|fbclid|abc123/);
    expect(html).toMatch(/href="\?lang=de"/);
  }
  // Same credential, another language, and a language asked for that we lack: never the English page kept above.
  const german = await fetch(page, { headers: { "Accept-Language": "en", Cookie: "cis.lang=fr; cis.lang=de" } });
  expect(german.headers.get("content-language")).toBe("de");
  expect(await german.text()).toMatch(/<html[^>]*lang="de"/);
  const japanese = await (await fetch(page, { headers: { "Accept-Language": "ja" } })).text();
  expect(japanese).toContain('data-testid="language-fallback"');
  const english = await fetch(page, { headers: { "Accept-Language": "en" } });
  expect(english.headers.get("content-language")).toBe("en");
  expect(english.headers.get("vary")).toMatch(/Accept-Language/);
  expect(await english.text()).not.toContain('data-testid="language-fallback"');
});
