// With the test switch on (WEBHOOK_ALLOW_PRIVATE=1) a local receiver stands in for the internet; the
// other limits (no redirects, deadline, answer size) hold all the same.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCallableUrl, outboundRequest, OutboundRequestError } from "./outbound-request";

let server: http.Server;
let base = "";
const received: { method?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "1";
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ method: req.method, body, headers: req.headers });
      if (req.url === "/redirect") {
        res.writeHead(302, { location: `${base}/elsewhere` });
        return res.end();
      }
      if (req.url === "/hang") return; // never answers
      if (req.url === "/drip") {
        // Starts answering at once, then sends a byte every 50 ms and never ends.
        res.writeHead(200);
        const timer = setInterval(() => res.write("."), 50);
        return void res.on("close", () => clearInterval(timer));
      }
      if (req.url === "/huge") {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 97);
        let sent = 0;
        const pump = () => {
          while (sent < 160 && res.write(chunk)) sent++;
          if (sent < 160) res.once("drain", pump);
          else res.end();
        };
        return pump();
      }
      res.writeHead(201, { "content-type": "text/plain" });
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("with WEBHOOK_ALLOW_PRIVATE=1", () => {
  it("posts the body and headers and returns the answer", async () => {
    const response = await outboundRequest(`${base}/hook`, {
      body: '{"a":1}',
      headers: { "content-type": "application/json" },
      timeoutMs: 2000,
      maxResponseBytes: 1024,
    });
    expect(response.status).toBe(201);
    expect(response.body.toString()).toBe("thanks");
    expect(received.at(-1)).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(received.at(-1)!.headers["content-type"]).toBe("application/json");
  });

  it("accepts loopback URLs when saved", async () => {
    await expect(assertCallableUrl(`${base}/hook`)).resolves.toBeInstanceOf(URL);
  });

  it("does not follow a redirect", async () => {
    const before = received.length;
    const response = await outboundRequest(`${base}/redirect`, { timeoutMs: 2000, maxResponseBytes: 1024 });
    expect(response.status).toBe(302);
    expect(received.length).toBe(before + 1);
  });

  it("gives up on a receiver that never answers, at the deadline", async () => {
    const started = Date.now();
    const error = await outboundRequest(`${base}/hang`, { timeoutMs: 300, maxResponseBytes: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect((error as OutboundRequestError).kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("gives up on a receiver that drips its answer, at the deadline of the whole request", async () => {
    const started = Date.now();
    const error = await outboundRequest(`${base}/drip`, { timeoutMs: 400, maxResponseBytes: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect((error as OutboundRequestError).kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(700);
  });

  it("stops reading an answer larger than the limit", async () => {
    const error = await outboundRequest(`${base}/huge`, { timeoutMs: 5000, maxResponseBytes: 64 * 1024 }).catch((e: unknown) => e);
    expect((error as OutboundRequestError).kind).toBe("response_too_large");
  });

  it("names a refused connection", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await outboundRequest(`http://127.0.0.1:${port}/`, { timeoutMs: 2000, maxResponseBytes: 1024 }).catch((e: unknown) => e);
    expect((error as OutboundRequestError).kind).toBe("network");
    expect((error as OutboundRequestError).message).toMatch(/refused/);
  });

  it("sends again on a new connection when the server closed a kept-alive socket as it was reused", async () => {
    // The second request on each connection is cut off unanswered, as when the server's idle timeout
    // and our reuse cross; a request on a fresh connection is answered.
    let connections = 0;
    const requestsOn = new WeakMap<object, number>();
    const flaky = http.createServer((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      req.resume();
      if (n > 1) return void req.socket.destroy();
      res.end(`answer ${connections}`);
    });
    flaky.on("connection", () => connections++);
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`;
    try {
      expect((await outboundRequest(url, { timeoutMs: 5000, maxResponseBytes: 1024 })).status).toBe(200);
      const second = await outboundRequest(url, { timeoutMs: 5000, maxResponseBytes: 1024 });
      expect(second.status).toBe(200);
      expect(connections).toBe(2);
    } finally {
      flaky.closeAllConnections();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  it("sends again on a new connection within the first request's deadline, not a deadline of its own", async () => {
    // The reused connection is cut off late in the deadline; the fresh one never answers.
    const requestsOn = new WeakMap<object, number>();
    const late = http.createServer((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      req.resume();
      if (n === 1 && !req.url?.includes("hang")) return void res.end("first");
      if (n > 1) return void setTimeout(() => req.socket.destroy(), 500);
    });
    await new Promise<void>((resolve) => late.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(late.address() as AddressInfo).port}`;
    try {
      expect((await outboundRequest(`${url}/`, { timeoutMs: 5000, maxResponseBytes: 1024 })).status).toBe(200);
      const started = Date.now();
      const error = await outboundRequest(`${url}/hang`, { timeoutMs: 800, maxResponseBytes: 1024 }).catch((e: unknown) => e);
      expect((error as OutboundRequestError).kind).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(1100);
    } finally {
      late.closeAllConnections();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });
});
