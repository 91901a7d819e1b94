// Content coding of what the server answers before Next (lib/http-server/compression.ts): `/v1`
// answers and the public faces kept in the process's cache, read over a plain HTTP client that does
// not decode, so the bytes on the wire and their headers are what is checked.
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { test, expect } from "../fixtures";
import { uniqueEmail } from "../support/credentials";
import { issueCredential, walletGroup } from "../support/wallet-helpers";

type Wire = { status: number; headers: http.IncomingHttpHeaders; bytes: Buffer };

function get(port: number, pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: pathname, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The body as the client would read it, after undoing the answer's coding. */
function decoded(wire: Wire): string {
  const coding = wire.headers["content-encoding"];
  const bytes = coding === "br" ? brotliDecompressSync(wire.bytes) : coding === "gzip" ? gunzipSync(wire.bytes) : wire.bytes;
  return bytes.toString("utf8");
}

test.describe("compressed answers", () => {
  test("a /v1 list goes as brotli or gzip as the client asks, plain to a client that asks for neither", async ({ api, org, server }) => {
    const group = await walletGroup(api);
    for (let i = 0; i < 3; i++) await issueCredential(api, group.id, { name: `Coda ${i}`, email: uniqueEmail("coding") });
    const auth = { Authorization: `Bearer ${org.token}`, "Service-Version": "2022-10-26" };
    const path = `/v1/credentials?limit=3`;
    const plain = await get(server.port, path, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-length"]).toBe(String(plain.bytes.length));
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(plain.headers.vary).toContain("Accept-Encoding");
    const listed = JSON.parse(plain.bytes.toString("utf8")) as { data: { id: string }[] };
    expect(listed.data).toHaveLength(3);

    for (const [accept, coding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip;q=0.5", "gzip"],
      ["identity, br;q=0.5", undefined],
      ["deflate", undefined],
    ] as const) {
      const wire = await get(server.port, path, { ...auth, "Accept-Encoding": accept });
      expect(wire.status, accept).toBe(200);
      expect(wire.headers["content-encoding"], accept).toBe(coding);
      expect(wire.headers["content-length"], accept).toBe(String(wire.bytes.length));
      expect(wire.headers.vary, accept).toContain("Accept-Encoding");
      const body = JSON.parse(decoded(wire)) as { data: { id: string }[] };
      expect(
        body.data.map((c) => c.id),
        accept,
      ).toEqual(listed.data.map((c) => c.id));
      if (coding !== undefined) expect(wire.bytes.length, accept).toBeLessThan(plain.bytes.length / 2);
    }

    // HEAD says what the GET would send, without a body.
    const brGet = await get(server.port, path, { ...auth, "Accept-Encoding": "br" });
    const head = await get(server.port, path, { ...auth, "Accept-Encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(String(brGet.bytes.length));
    expect(head.bytes.length).toBe(0);

    // A small answer (the error envelope) goes as it is.
    const refused = await get(server.port, path, { "Service-Version": "2022-10-26", "Accept-Encoding": "br, gzip" });
    expect(refused.status).toBe(401);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(refused.bytes.toString("utf8")).error.code).toBeTruthy();
  });

  test("a kept wallet page goes compressed with each answer's own nonce; a kept document compressed, and 304 by its ETag", async ({
    api,
    org,
    server,
  }) => {
    const group = await walletGroup(api);
    const credential = await issueCredential(api, group.id, { name: "Brötli Gzipson", email: uniqueEmail("coding-page") });
    const page = `/credentials/${credential.publicId}`;
    await get(server.port, page); // kept
    const plain = await get(server.port, page);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const nonces = new Set<string>();
    for (const accept of ["gzip, deflate, br, zstd", "gzip"]) {
      const wire = await get(server.port, page, { "Accept-Encoding": accept });
      expect(wire.status, accept).toBe(200);
      expect(wire.headers["content-encoding"], accept).toBe(accept === "gzip" ? "gzip" : "br");
      expect(wire.headers.vary, accept).toContain("Accept-Encoding");
      expect(wire.bytes.length, accept).toBeLessThan(plain.bytes.length / 2);
      const html = decoded(wire);
      expect(html).toContain("Brötli Gzipson");
      const policyNonce = /'nonce-([^']+)'/.exec(String(wire.headers["content-security-policy"]))?.[1];
      expect(policyNonce).toBeTruthy();
      expect(new Set([...html.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((m) => m[1]))).toEqual(new Set([policyNonce]));
      nonces.add(policyNonce!);
    }
    expect(nonces.size).toBe(2);

    const document = `${page}/credential.json`;
    await get(server.port, document); // kept
    const json = await get(server.port, document);
    const etag = String(json.headers.etag);
    const br = await get(server.port, document, { "Accept-Encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(decoded(br)).toBe(json.bytes.toString("utf8"));
    const gzip = await get(server.port, document, { "Accept-Encoding": "gzip" });
    expect(decoded(gzip)).toBe(json.bytes.toString("utf8"));
    const notModified = await get(server.port, document, { "Accept-Encoding": "br", "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);

    // A document is compressed once, when it is kept: even a small one goes compressed.
    const did = `/organizations/${org.slug}/did.json`;
    await get(server.port, did); // kept
    const didPlain = await get(server.port, did);
    expect(didPlain.bytes.length).toBeLessThan(1024);
    const didZipped = await get(server.port, did, { "Accept-Encoding": "gzip" });
    expect(didZipped.headers["content-encoding"]).toBe("gzip");
    expect(decoded(didZipped)).toBe(didPlain.bytes.toString("utf8"));
  });
});
