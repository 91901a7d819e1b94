// The app server's edge (server.ts), below what an HTTP client library shows: connections that carry
// a body the server stopped reading, paths Next cannot decode, the headers every response carries,
// and the process's own output.
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { createDesign, createGroup, expectStatus, listAll } from "../support/api-helpers";
import { RawConnection, type RawResponse } from "../support/raw-http";

const TWO_MIB = 2 * 1024 * 1024;
/** A hang here used to last until the socket timed out (about 65 s); a few seconds is prompt. */
const PROMPT_MS = 5_000;

function requestHead(method: string, path: string, headers: Record<string, string>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
}

function apiHeaders(token?: string): Record<string, string> {
  return { "Service-Version": SERVICE_VERSION, "X-Forwarded-Proto": "https", ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

function envelope(response: RawResponse): { code: string; message: string } {
  return (JSON.parse(response.body.toString("utf8")) as { error: { code: string; message: string } }).error;
}

/** After `first`, the connection must either answer the next request or be closed, promptly. */
async function expectNoHangAfter(connection: RawConnection, first: RawResponse, token: string) {
  const started = Date.now();
  connection.write(requestHead("GET", "/v1/groups", apiHeaders(token)));
  const second = await connection.readResponse(PROMPT_MS);
  if (second === "closed") {
    // Closing is fine only when announced.
    expect(first.headers["connection"]).toBe("close");
  } else {
    expect(second.status).toBe(200);
  }
  expect(Date.now() - started).toBeLessThan(PROMPT_MS);
}

test.describe("a response that finishes before its request body was read", () => {
  const body = Buffer.alloc(TWO_MIB, "a");

  test("a chunked 2 MiB body → 413, then the connection serves the next request or closes, without hanging", async ({
    server,
    org,
    api,
  }) => {
    const connection = await RawConnection.open(server.baseURL);
    try {
      connection.write(
        requestHead("POST", "/v1/designs", {
          ...apiHeaders(org.token),
          "Content-Type": "application/json",
          "Transfer-Encoding": "chunked",
        }),
      );
      const piece = 64 * 1024;
      for (let at = 0; at < body.length; at += piece) {
        connection.write(`${piece.toString(16)}\r\n`);
        connection.write(body.subarray(at, at + piece));
        connection.write("\r\n");
      }
      connection.write("0\r\n\r\n");
      const first = await connection.readResponse(30_000);
      expect(first).not.toBe("closed");
      const response = first as RawResponse;
      expect(response.status).toBe(413);
      expect(envelope(response).code).toBe("payload_too_large");
      expect(response.headers["x-request-id"]).toMatch(/^req_/);
      await expectNoHangAfter(connection, response, org.token);
    } finally {
      connection.close();
    }
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("a declared Content-Length over 1 MiB → 413, then no hang", async ({ server, org, api }) => {
    const connection = await RawConnection.open(server.baseURL);
    try {
      connection.write(
        requestHead("POST", "/v1/designs", {
          ...apiHeaders(org.token),
          "Content-Type": "application/json",
          "Content-Length": String(body.length),
        }),
      );
      connection.write(body);
      const first = await connection.readResponse(30_000);
      expect(first).not.toBe("closed");
      const response = first as RawResponse;
      expect(response.status).toBe(413);
      expect(envelope(response).code).toBe("payload_too_large");
      await expectNoHangAfter(connection, response, org.token);
    } finally {
      connection.close();
    }
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("a refusal before the body is read (401 without a token) → then no hang", async ({ server, org }) => {
    const connection = await RawConnection.open(server.baseURL);
    try {
      connection.write(
        requestHead("POST", "/v1/designs", { ...apiHeaders(), "Content-Type": "application/json", "Content-Length": String(body.length) }),
      );
      connection.write(body);
      const first = (await connection.readResponse(30_000)) as RawResponse;
      expect(first.status).toBe(401);
      await expectNoHangAfter(connection, first, org.token);
    } finally {
      connection.close();
    }
  });

  test("a body that was read in full keeps the connection open for the next request", async ({ server, org }) => {
    const connection = await RawConnection.open(server.baseURL);
    try {
      const small = JSON.stringify({ name: "x", type: "badge", unknown: true });
      connection.write(
        requestHead("POST", "/v1/designs", {
          ...apiHeaders(org.token),
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(small)),
        }),
      );
      connection.write(small);
      const first = (await connection.readResponse(10_000)) as RawResponse;
      expect(first.status).toBe(400);
      expect(first.headers["connection"]).not.toBe("close");
      connection.write(requestHead("GET", "/v1/groups", apiHeaders(org.token)));
      const second = await connection.readResponse(PROMPT_MS);
      expect(second).not.toBe("closed");
      expect((second as RawResponse).status).toBe(200);
    } finally {
      connection.close();
    }
  });
});

test.describe("paths with malformed percent-encoding or control characters", () => {
  const ID_ROUTES = [
    ["GET", "/v1/credentials/%ff"],
    ["PATCH", "/v1/credentials/%ff"],
    ["DELETE", "/v1/credentials/%ff"],
    ["GET", "/v1/credentials/%ff/designs"],
    ["POST", "/v1/credentials/%ff/issue"],
    ["POST", "/v1/credentials/%ff/send"],
    ["GET", "/v1/designs/%ff"],
    ["PATCH", "/v1/designs/%ff"],
    ["GET", "/v1/groups/%ff"],
    ["PATCH", "/v1/groups/%ff"],
    ["DELETE", "/v1/groups/%ff"],
    ["GET", "/v1/designs/%e0%a4"],
    ["GET", "/v1/groups/%zz"],
    ["GET", "/v1/credentials/%"],
    // Control characters: a NUL would reach PostgreSQL, which fails on it.
    ["GET", "/v1/credentials/%00"],
    ["PATCH", "/v1/designs/a%0Ab"],
  ] as const;

  async function send(baseURL: string, method: string, path: string, headers: Record<string, string>): Promise<RawResponse> {
    const connection = await RawConnection.open(baseURL);
    try {
      connection.write(requestHead(method, path, { ...headers, "Content-Length": "0" }));
      const response = await connection.readResponse(10_000, { head: method === "HEAD" });
      expect(response, `${method} ${path}`).not.toBe("closed");
      return response as RawResponse;
    } finally {
      connection.close();
    }
  }

  test("every {id} route under /v1 → 404 not_found in the envelope, with the client's X-Request-Id", async ({ server, org }) => {
    for (const [method, path] of ID_ROUTES) {
      const response = await send(server.baseURL, method, path, { ...apiHeaders(org.token), "X-Request-Id": "probe-42" });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(envelope(response).code).toBe("not_found");
      expect(envelope(response).message.length).toBeGreaterThan(0);
      expect(response.headers["x-request-id"]).toBe("probe-42");
    }
  });

  test("without a usable X-Request-Id the server makes one", async ({ server }) => {
    for (const headers of [{}, { "X-Request-Id": "no spaces allowed" }, { "X-Request-Id": "x".repeat(200) }] as Record<string, string>[]) {
      const response = await send(server.baseURL, "GET", "/v1/credentials/%ff", headers);
      expect(response.status).toBe(404);
      expect(response.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });

  test("public API-ish paths answer the envelope too: logos, previews, /api", async ({ server }) => {
    for (const path of ["/organizations/%ff/logo", "/organizations/%00/logo", "/previews/%ff.png", "/api/wallet/%ff"]) {
      const response = await send(server.baseURL, "GET", path, { "X-Request-Id": "probe-43" });
      expect(response.status, path).toBe(404);
      expect(envelope(response).code, path).toBe("not_found");
      expect(response.headers["x-request-id"]).toBe("probe-43");
    }
  });

  test("pages answer a small HTML 404 page", async ({ server }) => {
    for (const path of ["/credentials/%ff", "/credentials/%00", "/dashboard/designs/%ff", "/%c0%af"]) {
      const response = await send(server.baseURL, "GET", path, {});
      expect(response.status, path).toBe(404);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.body.toString("utf8")).toContain("Page not found");
      expect(response.headers["x-request-id"]).toMatch(/^req_/);
    }
    const head = await send(server.baseURL, "HEAD", "/credentials/%ff", {});
    expect(head.status).toBe(404);
  });

  test("a well-encoded path still reaches the app", async ({ server }) => {
    const response = await send(server.baseURL, "GET", "/v1/designs/%64%65%73_nothere", apiHeaders());
    // Decodable, so the /v1 wrapper answers it (here: no token) rather than the edge's 404.
    expect(response.status).toBe(401);
    expect(envelope(response).code).toBe("unauthorized");
  });
});

test.describe("security headers", () => {
  function expectCommonHeaders(headers: Record<string, string>, what: string) {
    expect(headers["x-content-type-options"], what).toBe("nosniff");
    expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
    const csp = headers["content-security-policy"] ?? "";
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp, what).toContain("object-src 'none'");
    expect(headers["x-request-id"], what).toBeTruthy();
  }

  test("every /v1 answer: success, error, unknown route", async ({ api, client }) => {
    const responses = {
      "GET /v1/groups": await api.get("/v1/groups"),
      "POST /v1/designs (invalid)": await api.post("/v1/designs", { data: { nope: 1 } }),
      "GET /v1/nothing": await api.get("/v1/nothing"),
      "GET /v1/groups without a token": await (await client()).get("/v1/groups"),
      "GET /v1/openapi.json": await api.get("/v1/openapi.json"),
    };
    for (const [what, response] of Object.entries(responses)) {
      expectCommonHeaders(response.headers(), what);
      expect(response.headers()["content-security-policy"], what).toContain("frame-ancestors 'none'");
      expect(response.headers()["x-frame-options"], what).toBe("DENY");
    }
  });

  test("preview files may be embedded; their 404s carry the headers too", async ({ api, client }) => {
    const group = await createGroup(api, { name: "Headers", designIds: [(await createDesign(api, "badge")).id] });
    const credential = await expectStatus(
      await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Ada", email: "ada.headers@example.com" } } }),
      201,
    );
    const designs = await expectStatus(await api.get(`/v1/credentials/${credential.id}/designs`), 200);
    const http = await client({ version: null });
    for (const preview of (designs.data ?? designs)[0].previews as { url: string }[]) {
      const response = await http.get(new URL(preview.url).pathname);
      expect(response.status()).toBe(200);
      expectCommonHeaders(response.headers(), preview.url);
      expect(response.headers()["content-security-policy"]).toContain("frame-ancestors *");
      expect(response.headers()["x-frame-options"]).toBeUndefined();
    }
    const missing = await http.get(`/previews/${"0".repeat(40)}.png`);
    expect(missing.status()).toBe(404);
    expectCommonHeaders(missing.headers(), "missing preview");
  });

  test("HSTS only when the request came over HTTPS (here: a trusted proxy's X-Forwarded-Proto)", async ({ client, org }) => {
    const secure = await client({ token: org.token });
    expect((await secure.get("/v1/groups")).headers()["strict-transport-security"]).toBe("max-age=31536000");
    const plain = await client({
      token: org.token,
      https: false,
      headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": "127.0.0.1" },
    });
    const response = await plain.get("/v1/groups");
    expect(response.status()).toBe(200);
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
  });

  test("without TRUST_PROXY a client's X-Forwarded-Proto: https does not earn HSTS", async ({ startServer, client, org }) => {
    const server = await startServer({ TRUST_PROXY: "0" });
    const claims = await client({ baseURL: server.baseURL, token: org.token });
    const response = await claims.get("/v1/groups");
    expect(response.status()).toBe(200);
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
    expectCommonHeaders(response.headers(), "TRUST_PROXY=0");
  });
});

test("every line the server process writes is a JSON line without a stack, Next's own errors included", async ({
  startServer,
  client,
  org,
}) => {
  const server = await startServer({ LOG_LEVEL: "debug" });
  const http = await client({ baseURL: server.baseURL, version: null });
  // Next's own errors: server actions that do not exist, a body it cannot parse.
  for (const [action, contentType, data] of [
    ["0123456789abcdef0123456789abcdef01234567", "text/plain;charset=UTF-8", "[]"],
    ["x", "multipart/form-data; boundary=zz", "not multipart at all"],
  ]) {
    const response = await http.post("/signin", { headers: { "Next-Action": action!, "Content-Type": contentType! }, data });
    expect(response.status()).toBeGreaterThanOrEqual(400);
  }
  // The edge's own answer, and a /v1 request with a NUL byte in its text: PostgreSQL refuses those
  // with a driver error (its message quotes the value), SQLite stores them.
  expect((await http.get("/v1/credentials/%ff")).status()).toBe(404);
  const api = await client({ baseURL: server.baseURL, token: org.token });
  const nul = await api.post("/v1/designs", { data: { name: "a\u0000b", type: "badge" } });
  expect([201, 400, 500]).toContain(nul.status());
  await server.stop();

  // npm prints its own lines around the server's ("> app@0.1.0 start", "> tsx scripts/start.ts", and
  // warnings about the machine's npm configuration): those are not the server's.
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^> /.test(line) && !/^npm (warn|notice) /.test(line));
  expect(lines.length).toBeGreaterThan(3);
  for (const line of lines) {
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      /* reported below */
    }
    expect(parsed, `not a JSON line: ${line}`).not.toBeNull();
    expect(typeof parsed!.time).toBe("string");
    expect(typeof parsed!.level).toBe("string");
    expect(typeof parsed!.event).toBe("string");
    expect(line, "a stack trace").not.toContain("    at ");
    expect(line).not.toMatch(/\\n\s+at /);
  }
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(events.some((e) => e.event === "server_ready")).toBe(true);
  // Next's errors were there, and were summarised.
  expect(events.some((e) => e.event === "console" && typeof e.errorType === "string")).toBe(true);
});
