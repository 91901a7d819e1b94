// "Download all" (docs/api.md, Download all): GET {WALLET_URL}/api/wallet/me/download streams one zip of
// the signed-in recipient's downloadable credentials (issued or expired, not revoked), each with its
// credential.json, and per design its PDF and its PNG with the signed credential baked in. Read back
// with the system's `unzip`; the baked PNGs are checked by the server's own verifier.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import { signInToWallet } from "../support/wallet-session";

const email = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

function download(baseURL: string, cookie: string | null, headers: Record<string, string> = {}) {
  return fetch(`${baseURL}/api/wallet/me/download`, {
    headers: { "X-Forwarded-For": uniqueAddress(), ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });
}

function unzip(zip: Buffer) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "wallet-zip-")), "all.zip");
  writeFileSync(file, zip);
  return {
    names: execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n").filter(Boolean).sort(),
    read: (name: string) => execFileSync("unzip", ["-p", file, name], { maxBuffer: 64 * 1024 * 1024 }),
  };
}

test("without a session it is 401; from another site 403", async ({ api, server }) => {
  const none = await download(server.baseURL, null);
  expect(none.status).toBe(401);
  expect(((await none.json()) as { error: { code: string } }).error.code).toBe("unauthorized");

  const address = email("cross");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Cross Site", email: address });
  const cookie = await signInToWallet(server.baseURL, address);
  for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }] as Record<string, string>[]) {
    const refused = await download(server.baseURL, cookie, headers);
    expect(refused.status, JSON.stringify(headers)).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/json");
  }
});

test("the zip holds each downloadable credential's credential.json, PDF and baked PNG, and nothing else", async ({
  api,
  server,
  newOrg,
  client,
}) => {
  test.setTimeout(120_000);
  const address = email("zip");
  const single = await walletGroup(api, { name: "Web Accessibility" });
  const double = await walletGroup(api, { name: "Data/Science", badge: true });
  const first = await issueCredential(api, single.id, { name: "Zip Person", email: address.toUpperCase() }, { issueDate: "2024-03-01" });
  const second = await issueCredential(api, double.id, { name: "Zip Person", email: address });
  const revoked = await issueCredential(api, single.id, { name: "Zip Person", email: address });
  await expectStatus(await api.post(`/v1/credentials/${revoked.id}/revoke`, {}), 200);
  // Another organization's credential for the same person is theirs too; another person's is not.
  const other = await newOrg();
  const otherApi = await client({ token: other.token });
  const elsewhere = await issueCredential(otherApi, (await walletGroup(otherApi, { name: "Elsewhere" })).id, {
    name: "Zip Person",
    email: address,
  });
  const stranger = await issueCredential(api, single.id, { name: "Someone Else", email: email("else") });

  const cookie = await signInToWallet(server.baseURL, address);
  // Private hides a credential from others, not from its recipient's own download.
  const hide = await fetch(`${server.baseURL}/api/wallet/me/credentials/${elsewhere.publicId}`, {
    method: "PATCH",
    headers: { Cookie: cookie, "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress() },
    body: JSON.stringify({ visibility: "private" }),
  });
  expect(hide.status).toBe(200);
  const response = await download(server.baseURL, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/zip");
  expect(response.headers.get("content-disposition")).toBe('attachment; filename="credentials.zip"');
  expect(response.headers.get("cache-control")).toBe("no-store");
  const zip = unzip(Buffer.from(await response.arrayBuffer()));

  // A folder per credential, named for issuer, title and publicId.
  const folders = [...new Set(zip.names.map((name) => name.split("/")[0]!))];
  expect(folders).toHaveLength(3);
  const folderOf = (publicId: string) => folders.find((f) => f.endsWith(`-${publicId}`))!;
  expect(folderOf(first.publicId)).toMatch(/-web-accessibility-[0-9a-f-]{36}$/);
  expect(folderOf(second.publicId)).toMatch(/-data-science-[0-9a-f-]{36}$/);
  expect(folderOf(elsewhere.publicId)).toMatch(/-elsewhere-[0-9a-f-]{36}$/);
  const filesIn = (publicId: string) => zip.names.filter((n) => n.startsWith(`${folderOf(publicId)}/`)).map((n) => n.split("/")[1]);
  expect(filesIn(first.publicId)).toEqual(["credential.json", "web-accessibility.pdf", "web-accessibility.png"]);
  expect(filesIn(elsewhere.publicId)).toEqual(["credential.json", "elsewhere.pdf", "elsewhere.png"]);
  // Two designs: a PDF and a PNG each, named by title and design, never twice the same.
  const twoDesigns = filesIn(second.publicId);
  expect(twoDesigns).toHaveLength(5);
  expect(twoDesigns.filter((n) => /^data-science-.+\.pdf$/.test(n!))).toHaveLength(2);
  expect(twoDesigns.filter((n) => /^data-science-.+\.png$/.test(n!))).toHaveLength(2);
  for (const absent of [revoked.publicId, stranger.publicId]) expect(zip.names.join("\n")).not.toContain(absent);

  for (const credential of [first, second, elsewhere]) {
    const folder = folderOf(credential.publicId);
    const json = zip.read(`${folder}/credential.json`).toString("utf8");
    const served = await fetch(`${server.baseURL}/credentials/${credential.publicId}/credential.json`, { headers: { Cookie: cookie } });
    expect(JSON.parse(json)).toEqual(await served.json());
    for (const name of zip.names.filter((n) => n.startsWith(`${folder}/`))) {
      const bytes = zip.read(name);
      if (name.endsWith(".pdf")) expect(bytes.subarray(0, 5).toString("latin1"), name).toBe("%PDF-");
      if (name.endsWith(".png")) {
        expect(bytes.subarray(0, 8).toString("hex"), name).toBe("89504e470d0a1a0a");
        const verified = await fetch(`${server.baseURL}/api/verify`, {
          method: "POST",
          headers: { "Content-Type": "image/png", "X-Forwarded-For": uniqueAddress() },
          body: bytes,
        });
        expect(verified.status).toBe(200);
        const report = (await verified.json()) as { verdict: string };
        expect(report.verdict, name).toBe("valid");
      }
    }
  }
});

test("a client that goes away mid-download leaves no error behind and the server answering", async ({ api, server }) => {
  test.setTimeout(120_000);
  const address = email("quit");
  const group = await walletGroup(api, { badge: true });
  for (let i = 0; i < 5; i++) await issueCredential(api, group.id, { name: `Quitter ${i}`, email: address });
  const cookie = await signInToWallet(server.baseURL, address);
  const requestId = `wallet-download-abort-${randomUUID()}`;
  const logStart = readFileSync(server.logFile, "utf8").length;

  await new Promise<void>((resolve, reject) => {
    const request = http.get(
      `${server.baseURL}/api/wallet/me/download`,
      { headers: { Cookie: cookie, "X-Forwarded-For": uniqueAddress(), "X-Request-Id": requestId } },
      (response) => {
        expect(response.statusCode).toBe(200);
        response.once("data", () => {
          request.destroy();
          resolve();
        });
      },
    );
    request.on("error", (error) => ((error as NodeJS.ErrnoException).code === "ECONNRESET" ? resolve() : reject(error)));
  });
  await new Promise((resolve) => setTimeout(resolve, 4000));

  const lines = readFileSync(server.logFile, "utf8")
    .slice(logStart)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const faults = lines.filter(
    (l) => l.level === "error" && (l.requestId === requestId || l.event === "wallet_archive_failed" || l.event === "console"),
  );
  expect(faults).toEqual([]);
  // The server still answers, the same download included.
  const again = await download(server.baseURL, cookie);
  expect(again.status).toBe(200);
  expect(unzip(Buffer.from(await again.arrayBuffer())).names.length).toBe(5 * 5);
});

/** Starts a download and waits for its status line, reading nothing more: the stream stays open until `close`. */
function openDownload(
  baseURL: string,
  cookie: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Promise<string>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseURL}/api/wallet/me/download`,
      { headers: { Cookie: cookie, "X-Forwarded-For": uniqueAddress() } },
      (response) => {
        response.pause();
        const body = new Promise<string>((done) => {
          if (response.statusCode === 200) return done("");
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => done(Buffer.concat(chunks).toString("utf8")));
          response.resume();
        });
        resolve({ status: response.statusCode!, headers: response.headers, body, close: () => request.destroy() });
      },
    );
    request.on("error", (error) => ((error as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(error)));
  });
}

test("a session streams at most two zips at once: a third is 429 until one of them ends or its client goes away", async ({
  api,
  server,
}) => {
  test.setTimeout(120_000);
  const address = email("busy");
  const group = await walletGroup(api, { badge: true });
  for (let i = 0; i < 4; i++) await issueCredential(api, group.id, { name: `Busy ${i}`, email: address });
  const cookie = await signInToWallet(server.baseURL, address);

  const downloads = await Promise.all([0, 1, 2].map(() => openDownload(server.baseURL, cookie)));
  expect(downloads.map((d) => d.status).sort()).toEqual([200, 200, 429]);
  const refused = downloads.find((d) => d.status === 429)!;
  expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  const envelope = JSON.parse(await refused.body) as { error: { code: string; message: string } };
  expect(envelope.error.code).toBe("rate_limited");
  expect(envelope.error.message).toMatch(/at once/);

  // Another recipient's session is not held back by this one's downloads.
  const other = email("busy-other");
  await issueCredential(api, group.id, { name: "Other", email: other });
  const otherDownload = await download(server.baseURL, await signInToWallet(server.baseURL, other));
  expect(otherDownload.status).toBe(200);
  await otherDownload.arrayBuffer();

  // The clients go away: their slots are freed.
  for (const d of downloads) d.close();
  await expect
    .poll(
      async () => {
        const next = await openDownload(server.baseURL, cookie);
        next.close();
        return next.status;
      },
      { timeout: 10_000 },
    )
    .toBe(200);
});

test("a session starts six downloads in a row, then 429 with Retry-After", async ({ api, server }) => {
  test.setTimeout(120_000);
  const address = email("starts");
  const group = await walletGroup(api);
  await issueCredential(api, group.id, { name: "Starter", email: address });
  const cookie = await signInToWallet(server.baseURL, address);
  for (let i = 0; i < 6; i++) {
    // Read to the end, one after another: each stream has ended (its slot freed) before the next starts.
    const ok = await download(server.baseURL, cookie);
    expect(ok.status, `download ${i + 1}`).toBe(200);
    await ok.arrayBuffer();
  }
  const refused = await download(server.baseURL, cookie);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("rate_limited");
  expect(body.error.message).toMatch(/started/);
});
