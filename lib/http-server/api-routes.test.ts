import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute, endpoint } from "../api/endpoint";
import { ApiRouter, serveApiRoute } from "./api-routes";
import { rawPath } from "./request-path";

const echo = endpoint({
  tag: "Test",
  summary: "echo",
  auth: "none",
  body: z.strictObject({ text: z.string() }),
  success: { status: 201, description: "echoed" },
  handle: async ({ body }) => ({ status: 201, body: { said: body.text }, headers: { "Set-Cookie": "a=1" } }),
});
const thingsRoute = defineRoute("/v1/things", {
  GET: endpoint({
    tag: "Test",
    summary: "list",
    auth: "none",
    success: { status: 200, description: "ok" },
    handle: async () => ({ status: 200, body: { data: [] } }),
  }),
  POST: echo,
});
const thingRoute = defineRoute("/v1/things/{id}", {
  GET: endpoint({
    tag: "Test",
    summary: "one",
    auth: "none",
    params: z.strictObject({ id: z.string() }),
    success: { status: 200, description: "ok" },
    handle: async ({ params }) => ({ status: 200, body: { id: params.id } }),
  }),
  DELETE: endpoint({
    tag: "Test",
    summary: "gone",
    auth: "none",
    params: z.strictObject({ id: z.string() }),
    success: { status: 204, description: "gone" },
    handle: async () => ({ status: 204 }),
  }),
});
const searchRoute = defineRoute("/v1/things/search", {
  POST: endpoint({
    tag: "Test",
    summary: "search",
    auth: "none",
    success: { status: 200, description: "ok" },
    handle: async () => ({ status: 200, body: { search: true } }),
  }),
});
const nestedRoute = defineRoute("/v1/things/{id}/parts/{partId}", {
  GET: endpoint({
    tag: "Test",
    summary: "part",
    auth: "none",
    params: z.strictObject({ id: z.string(), partId: z.string() }),
    success: { status: 200, description: "ok" },
    handle: async ({ params }) => ({ status: 200, body: params }),
  }),
});

// The dynamic route first: the router must still prefer the literal name.
const router = new ApiRouter([thingRoute, nestedRoute, thingsRoute, searchRoute]);

describe("ApiRouter.match", () => {
  it("prefers a literal segment over a parameter, as Next does", () => {
    expect(router.match("/v1/things/search")?.route).toBe(searchRoute);
    expect(router.match("/v1/things/thg_01abc")?.route).toBe(thingRoute);
  });

  it("reads each parameter from its own segment", () => {
    expect(router.match("/v1/things/t-1/parts/p_2")).toEqual({ route: nestedRoute, params: { id: "t-1", partId: "p_2" } });
  });

  it("leaves to Next what it would interpret: trailing and doubled slashes, encoded ids, dots, unknown paths", () => {
    for (const path of [
      "/v1/things/",
      "/v1//things",
      "/v1/things/a%20b",
      "/v1/things/..",
      "/v1/things/a.b",
      "/v1/other",
      "/V1/things",
      "/v1/things/x/parts",
    ]) {
      expect(router.match(path), path).toBeNull();
    }
    expect(router.match(`/v1/things/${"a".repeat(101)}`)).toBeNull();
  });

  it("answers only the methods a route has a handler for", () => {
    expect(router.handlerFor("HEAD", "/v1/things")).not.toBeNull();
    expect(router.handlerFor("PUT", "/v1/things")).not.toBeNull(); // the route's own 405
    expect(router.handlerFor("TRACE", "/v1/things")).toBeNull();
  });
});

describe("serveApiRoute over HTTP", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      // As server.ts does: one request id, on the request and on the response.
      req.headers["x-request-id"] = "req_fixed";
      res.setHeader("X-Request-Id", "req_fixed");
      res.setHeader("Cache-Control", "private"); // a header server.ts set stands over the handler's
      const path = rawPath(req.url)!;
      serveApiRoute(router, req, res, path)
        .then((served) => {
          if (!served) res.writeHead(599).end("left to Next");
        })
        .catch(() => res.writeHead(598).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const postThing = (body: string) => fetch(`${base}/v1/things`, { method: "POST", headers: { "Content-Type": "application/json" }, body });

  it("reads the JSON body and answers with its length, headers and cookies", async () => {
    const response = await postThing('{"text":"héllo"}');
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ said: "héllo" });
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(response.headers.get("set-cookie")).toBe("a=1");
    expect(response.headers.get("x-request-id")).toBe("req_fixed");
    expect(response.headers.get("cache-control")).toBe("private");
  });

  it("answers a refused body in the envelope", async () => {
    const response = await postThing('{"text":1}');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("validation_error");
  });

  it("answers HEAD with GET's length and no body, and 204 with nothing", async () => {
    const get = await fetch(`${base}/v1/things/abc`);
    const head = await fetch(`${base}/v1/things/abc`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(await head.text()).toBe("");
    const gone = await fetch(`${base}/v1/things/abc`, { method: "DELETE" });
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe("");
  });

  it("answers the route's own 405 for a method it lacks, and leaves other paths alone", async () => {
    const put = await fetch(`${base}/v1/things`, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect((await fetch(`${base}/v1/things/`)).status).toBe(599);
    expect((await fetch(`${base}/v1/nothing`)).status).toBe(599);
  });

  /** The raw answer to a request written by hand (what fetch would refuse to send). */
  function rawExchange(request: string): Promise<string> {
    const { port } = server.address() as AddressInfo;
    return new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(request.replaceAll("{port}", String(port))));
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
  }

  it("answers an absolute-form request target, with its query", async () => {
    const answer = await rawExchange(
      "GET http://127.0.0.1:{port}/v1/things/abc?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    expect(answer).toMatch(/^HTTP\/1.1 400 /); // the route refuses the unknown query parameter itself
    expect(answer).toContain('"path":"x"');
  });

  it("answers whatever Host the client sends, one a URL cannot hold too", async () => {
    for (const host of ["a:b", "x:99999", "[", "::1", "1.2.3.4.5"]) {
      const answer = await rawExchange(`GET /v1/things/abc HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer, host).toMatch(/^HTTP\/1.1 200 /);
      expect(answer, host).toContain('{"id":"abc"}');
    }
  });
});
