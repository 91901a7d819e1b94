// The default: private addresses refused. (outbound-request.private.test.ts runs with the test switch on.)
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCallableUrl, outboundRequest, OutboundRequestError, parseOutboundUrl } from "./outbound-request";

let hits = 0;
let server: http.Server;
let port = 0;

beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  server = http.createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(promise: Promise<unknown>): Promise<OutboundRequestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRequestError);
  return error as OutboundRequestError;
}

describe("parseOutboundUrl", () => {
  it.each([
    ["not a url", "absolute URL"],
    ["ftp://example.com/x", "https"],
    ["http://example.com/hook", "https"],
    ["https://user:pw@example.com/hook", "user name or password"],
  ])("refuses %s", (raw, words) => {
    expect(() => parseOutboundUrl(raw)).toThrowError(words);
  });

  it("accepts https anywhere and http for loopback hosts", () => {
    expect(parseOutboundUrl("https://example.com/hook").host).toBe("example.com");
    expect(parseOutboundUrl("http://localhost:8080/hook").port).toBe("8080");
    expect(parseOutboundUrl("http://127.0.0.1/hook").hostname).toBe("127.0.0.1");
  });
});

describe("without WEBHOOK_ALLOW_PRIVATE", () => {
  it.each(["http://127.0.0.1:PORT/", "http://localhost:PORT/", "http://[::ffff:127.0.0.1]:PORT/"])(
    "never connects to %s",
    async (template) => {
      const before = hits;
      const error = await failure(outboundRequest(template.replace("PORT", String(port)), { timeoutMs: 2000, maxResponseBytes: 1024 }));
      expect(error.kind).toBe("refused_address");
      expect(error.message).toMatch(/loopback/);
      expect(hits).toBe(before);
    },
  );

  it("refuses a private literal when a URL is saved, and a name resolving to loopback", async () => {
    expect((await failure(assertCallableUrl("https://10.0.0.8/hook"))).kind).toBe("refused_address");
    expect((await failure(assertCallableUrl("https://169.254.169.254/latest/meta-data"))).message).toMatch(/is a link-local address/);
    expect((await failure(assertCallableUrl("http://localhost:9/hook"))).kind).toBe("refused_address");
  });

  it("names an unresolvable host as such", async () => {
    expect((await failure(assertCallableUrl("https://no-such-host.invalid/"))).kind).toBe("dns");
  });
});
