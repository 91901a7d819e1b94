import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endWithBody, isCompressibleType, MIN_COMPRESSED_BYTES, preferredCoding } from "./compression";

function asked(acceptEncoding?: string): IncomingMessage {
  return { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } } as IncomingMessage;
}

describe("preferredCoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["gzip, deflate, br, zstd", "br"], // a browser's: brotli first at equal weights
    ["gzip, deflate", "gzip"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.8", "br"],
    ["gzip;q=0.9, br;q=0.1", "gzip"],
    ["identity", null],
    ["gzip;q=0.5, identity", null], // the client weighs the plain body higher
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["deflate, zstd", null], // nothing we make
    ["gzip;q=nonsense, 😀", null],
  ])("Accept-Encoding %j → %j", (header, expected) => {
    expect(preferredCoding(asked(header))).toBe(expected);
  });
});

describe("isCompressibleType", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["application/ld+json", true],
    ["application/vc+ld+json", true],
    ["application/problem+json", true],
    ["text/html; charset=utf-8", true],
    ["text/csv", true],
    ["image/svg+xml", true],
    ["application/javascript", true],
    ["image/png", false],
    ["application/pdf", false],
    ["application/zip", false],
    ["application/jsonx", false],
    [undefined, false],
  ])("%j → %j", (type, expected) => {
    expect(isCompressibleType(type)).toBe(expected);
  });
});

describe("endWithBody", () => {
  let server: Server;
  let port: number;
  const big = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `cred_${i}`, name: "Ada Lovelace" })) }));
  const small = Buffer.from('{"id":"cred_1"}');
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      res.statusCode = Number(url.searchParams.get("status") ?? 200);
      res.setHeader("Content-Type", url.searchParams.get("type") ?? "application/json");
      if (url.searchParams.has("vary")) res.setHeader("Vary", url.searchParams.get("vary")!);
      if (url.searchParams.has("cache")) res.setHeader("Cache-Control", url.searchParams.get("cache")!);
      endWithBody(req, res, url.pathname === "/small" ? small : big);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function get(path: string, headers: Record<string, string>, method = "GET") {
    return new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("sends brotli or gzip as the client asks, with the coded length, and says it varies", async () => {
    const br = await get("/big", { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    expect(br.body.length).toBeLessThan(big.length / 4);
    expect(brotliDecompressSync(br.body).equals(big)).toBe(true);
    expect(br.headers.vary).toBe("Accept-Encoding");

    const gzip = await get("/big", { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(big)).toBe(true);
  });

  it("sends the body as it is to a client that asks for nothing, still saying it varies", async () => {
    const plain = await get("/big", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(big)).toBe(true);
    expect(plain.headers["content-length"]).toBe(String(big.length));
    expect(plain.headers.vary).toBe("Accept-Encoding");
  });

  it("keeps a Vary the answer had, adding Accept-Encoding once", async () => {
    expect((await get("/big?vary=Cookie", { "Accept-Encoding": "gzip" })).headers.vary).toBe("Cookie, Accept-Encoding");
    expect((await get("/big?vary=accept-encoding", { "Accept-Encoding": "gzip" })).headers.vary).toBe("accept-encoding");
  });

  it("leaves small answers, images, no-transform answers and 204s alone", async () => {
    expect(small.length).toBeLessThan(MIN_COMPRESSED_BYTES);
    for (const path of ["/small", "/big?type=image%2Fpng", "/big?cache=no-transform", "/big?status=204"]) {
      const res = await get(path, { "Accept-Encoding": "gzip, br" });
      expect(res.headers["content-encoding"], path).toBeUndefined();
      expect(res.headers.vary, path).toBeUndefined();
    }
  });

  it("answers HEAD with the GET's coding and length, without a body", async () => {
    const get1 = await get("/big", { "Accept-Encoding": "br" });
    const head = await get("/big", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(get1.headers["content-length"]);
    expect(head.body.length).toBe(0);
  });
});
