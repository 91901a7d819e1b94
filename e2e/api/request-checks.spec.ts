// docs/api.md, Every /v1 request: the checks every /v1 request goes through, in order, and the response
// headers every /v1 response carries.
import { request as httpRequest } from "node:http";
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { expectError, expectStatus, listAll } from "../support/api-helpers";
import { execSql } from "../support/databases";

const REMOTE = "203.0.113.9"; // TEST-NET-3: a non-loopback client address
const VALID_LOOKING_TOKEN = `cis_${"A1b2C3d4E5".repeat(4)}`;

test.describe("1. HTTPS is required from non-loopback clients", () => {
  test("X-Forwarded-Proto: http from a remote client → 403 forbidden mentioning HTTPS, nothing created", async ({ client, org, api }) => {
    const plain = await client({ token: org.token, https: false, headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": REMOTE } });
    await expectError(await plain.get("/v1/groups"), 403, "forbidden", { message: /HTTPS/ });
    await expectError(await plain.post("/v1/designs", { data: { name: "x", type: "badge" } }), 403, "forbidden", { message: /HTTPS/ });
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("X-Forwarded-Proto: http without X-Forwarded-For counts as a remote client → 403", async ({ client, org }) => {
    // TRUST_PROXY=1: the proxy speaks for the client; with no forwarded address the client is unknown,
    // hence non-loopback (even though the TCP peer, the proxy, is on loopback).
    const plain = await client({ token: org.token, https: false, headers: { "X-Forwarded-Proto": "http" } });
    await expectError(await plain.get("/v1/groups"), 403, "forbidden", { message: /HTTPS/ });
  });

  test("X-Forwarded-Proto: https from a remote client passes", async ({ client, org }) => {
    const secure = await client({ token: org.token, headers: { "X-Forwarded-Proto": "https", "X-Forwarded-For": REMOTE } });
    await expectStatus(await secure.get("/v1/groups"), 200);
  });

  test("plain HTTP from a loopback client (forwarded 127.0.0.0/8 or ::1) passes", async ({ client, org }) => {
    for (const address of ["127.0.0.1", "127.45.6.7", "::1"]) {
      const local = await client({ token: org.token, https: false, headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": address } });
      await expectStatus(await local.get("/v1/groups"), 200);
    }
  });

  test("the last X-Forwarded-For entry is the client: a spoofed loopback first entry does not help", async ({ client, org }) => {
    const spoof = await client({
      token: org.token,
      https: false,
      headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": `127.0.0.1, ${REMOTE}` },
    });
    await expectError(await spoof.get("/v1/groups"), 403, "forbidden");
  });

  test("HTTPS is checked before the version and the token", async ({ client }) => {
    const bare = await client({ version: null, https: false, headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": REMOTE } });
    await expectError(await bare.get("/v1/groups"), 403, "forbidden");
  });

  test("ALLOW_HTTP=1 accepts plain HTTP from anywhere", async ({ startServer, client, org }) => {
    const server = await startServer({ ALLOW_HTTP: "1" });
    const plain = await client({
      baseURL: server.baseURL,
      token: org.token,
      https: false,
      headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": REMOTE },
    });
    await expectStatus(await plain.get("/v1/groups"), 200);
    await expectStatus(await plain.get("/v1/designs"), 200);
    // Still checked in order after that: a missing version is refused.
    const noVersion = await client({
      baseURL: server.baseURL,
      token: org.token,
      https: false,
      version: null,
      headers: { "X-Forwarded-Proto": "http", "X-Forwarded-For": REMOTE },
    });
    await expectError(await noVersion.get("/v1/groups"), 400, "missing_version");
  });
});

test.describe("2-3. Service-Version", () => {
  test("missing → 400 missing_version, nothing created", async ({ client, org, api }) => {
    const noVersion = await client({ token: org.token, version: null });
    await expectError(await noVersion.get("/v1/groups"), 400, "missing_version");
    await expectError(await noVersion.post("/v1/designs", { data: { name: "x", type: "badge" } }), 400, "missing_version");
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("not 2022-10-26 → 400 invalid_version, nothing created", async ({ client, org, api }) => {
    for (const version of ["2023-01-01", "2022-10-27", "v1", "latest"]) {
      const wrong = await client({ token: org.token, version });
      await expectError(await wrong.get("/v1/groups"), 400, "invalid_version");
      await expectError(await wrong.post("/v1/designs", { data: { name: "x", type: "badge" } }), 400, "invalid_version");
    }
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("a missing version beats a bad or missing token", async ({ client }) => {
    await expectError(await (await client({ version: null })).get("/v1/groups"), 400, "missing_version");
    await expectError(await (await client({ version: null, token: "nonsense" })).get("/v1/groups"), 400, "missing_version");
  });

  test("an invalid version beats a bad or missing token", async ({ client }) => {
    await expectError(await (await client({ version: "1999-01-01" })).get("/v1/groups"), 400, "invalid_version");
    await expectError(
      await (await client({ version: "1999-01-01", token: VALID_LOOKING_TOKEN })).get("/v1/groups"),
      400,
      "invalid_version",
    );
  });
});

test.describe("2-3. Certifier-Version, the version header's other name (section 9)", () => {
  test("Certifier-Version alone works like Service-Version", async ({ client, org }) => {
    const alias = await client({ token: org.token, version: null, headers: { "Certifier-Version": SERVICE_VERSION } });
    const body = await expectStatus(await alias.get("/v1/groups"), 200);
    expect(body).toEqual({ data: [], pagination: { prev: null, next: null } });
    await expectStatus(await alias.post("/v1/designs", { data: { name: "via alias", type: "badge" } }), 201);
  });

  test("both headers with the same value work", async ({ client, org }) => {
    const both = await client({ token: org.token, headers: { "Certifier-Version": SERVICE_VERSION } });
    await expectStatus(await both.get("/v1/groups"), 200);
  });

  test("both headers with different values → 400 invalid_version, nothing created", async ({ client, org, api }) => {
    const clash = await client({ token: org.token, headers: { "Certifier-Version": "2023-01-01" } });
    await expectError(await clash.get("/v1/groups"), 400, "invalid_version", { message: /Certifier-Version/ });
    await expectError(await clash.post("/v1/designs", { data: { name: "x", type: "badge" } }), 400, "invalid_version");
    // Even when the alias carries the good value and Service-Version the bad one.
    const reversed = await client({ token: org.token, version: "2023-01-01", headers: { "Certifier-Version": SERVICE_VERSION } });
    await expectError(await reversed.post("/v1/designs", { data: { name: "x", type: "badge" } }), 400, "invalid_version");
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("a wrong Certifier-Version alone → 400 invalid_version, before the token", async ({ client, org }) => {
    const wrong = await client({ token: org.token, version: null, headers: { "Certifier-Version": "v1" } });
    await expectError(await wrong.get("/v1/groups"), 400, "invalid_version");
    await expectError(
      await (await client({ version: null, headers: { "Certifier-Version": "v1" } })).get("/v1/groups"),
      400,
      "invalid_version",
    );
  });

  test("neither header → 400 missing_version", async ({ client, org }) => {
    await expectError(await (await client({ token: org.token, version: null })).get("/v1/groups"), 400, "missing_version");
  });
});

test.describe("4. Bearer token", () => {
  test("no Authorization header → 401 unauthorized", async ({ client }) => {
    const anonymous = await client();
    await expectError(await anonymous.get("/v1/groups"), 401, "unauthorized");
    await expectError(await anonymous.get("/v1/designs"), 401, "unauthorized");
    await expectError(await anonymous.post("/v1/groups", { data: { name: "x", designIds: ["a"] } }), 401, "unauthorized");
  });

  test("unknown (well-formed) token → 401 unauthorized", async ({ client }) => {
    await expectError(await (await client({ token: VALID_LOOKING_TOKEN })).get("/v1/groups"), 401, "unauthorized");
  });

  test("malformed tokens and schemes → 401 unauthorized", async ({ client, org }) => {
    const headers = [
      `Bearer ${org.token.slice(0, -1)}`, // too short
      `Bearer ${org.token}x`, // too long
      `Bearer ${org.token.toUpperCase()}`,
      `Basic ${Buffer.from(`user:${org.token}`).toString("base64")}`,
      `Token ${org.token}`,
      org.token, // no scheme
      "Bearer",
      "Bearer ",
      `Bearer ${org.token} ${org.token}`,
      "Bearer ' OR 1=1 --",
    ];
    for (const authorization of headers) {
      const ctx = await client({ headers: { Authorization: authorization } });
      await expectError(await ctx.get("/v1/groups"), 401, "unauthorized");
    }
  });

  test("a valid token passes", async ({ api }) => {
    const body = await expectStatus(await api.get("/v1/groups"), 200);
    expect(body).toEqual({ data: [], pagination: { prev: null, next: null } });
  });

  test("a bad token beats a bad JSON body, a too-large body and validation", async ({ client }) => {
    const bad = await client({ token: VALID_LOOKING_TOKEN });
    await expectError(
      await bad.post("/v1/groups", { data: "{not json", headers: { "Content-Type": "application/json" } }),
      401,
      "unauthorized",
    );
    await expectError(await bad.post("/v1/groups", { data: { bogus: true } }), 401, "unauthorized");
    await expectError(
      await bad.post("/v1/groups", {
        data: JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }),
        headers: { "Content-Type": "application/json" },
      }),
      401,
      "unauthorized",
    );
  });
});

test.describe("5. Rate limit", () => {
  test("over the limit → 429 rate_limited with Retry-After and RateLimit-* headers; per token", async ({
    startServer,
    client,
    newOrg,
    org,
  }) => {
    const server = await startServer({ RATE_LIMIT_PER_SECOND: "0.1", RATE_LIMIT_BURST: "3" });
    const limited = await client({ baseURL: server.baseURL, token: org.token });
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await limited.get("/v1/groups");
      await expectStatus(res, 200);
      expect(res.headers()["ratelimit-limit"]).toBe("3");
      remaining.push(Number(res.headers()["ratelimit-remaining"]));
    }
    expect(remaining).toEqual([2, 1, 0]);

    const res = await limited.get("/v1/groups");
    await expectError(res, 429, "rate_limited");
    const retryAfter = res.headers()["retry-after"];
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(10);
    expect(res.headers()["ratelimit-limit"]).toBe("3");
    expect(res.headers()["ratelimit-remaining"]).toBe("0");
    expect(res.headers()["ratelimit-reset"]).toMatch(/^\d+$/);

    // Rate limiting comes before body checks (rows 6-8) and creates nothing.
    await expectError(
      await limited.post("/v1/groups", { data: "{oops", headers: { "Content-Type": "application/json" } }),
      429,
      "rate_limited",
    );
    await expectError(await limited.post("/v1/designs", { data: { name: "x", type: "badge" } }), 429, "rate_limited");
    await expectError(
      await limited.post("/v1/groups", {
        data: JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }),
        headers: { "Content-Type": "application/json" },
      }),
      429,
      "rate_limited",
    );
    // The limit is per token: another organization's token on the same server is not limited.
    const other = await newOrg();
    await expectStatus(await (await client({ baseURL: server.baseURL, token: other.token })).get("/v1/groups"), 200);
    // An invalid token is still answered 401 first.
    await expectError(await (await client({ baseURL: server.baseURL, token: VALID_LOOKING_TOKEN })).get("/v1/groups"), 401, "unauthorized");
    // Nothing was created while limited.
    const normal = await client({ token: org.token });
    expect(await listAll(normal, "/v1/designs")).toEqual([]);
  });

  test("ordinary responses carry RateLimit-Limit/-Remaining/-Reset (defaults: burst 200)", async ({ api }) => {
    const first = await api.get("/v1/groups");
    await expectStatus(first, 200);
    const h = first.headers();
    expect(h["ratelimit-limit"]).toBe("200");
    expect(h["ratelimit-remaining"]).toMatch(/^\d+$/);
    expect(h["ratelimit-reset"]).toMatch(/^\d+$/);
    const second = await api.get("/v1/designs");
    expect(Number(second.headers()["ratelimit-remaining"])).toBeLessThanOrEqual(Number(h["ratelimit-remaining"]));
  });
});

test.describe("6. Body size", () => {
  test("a body over 1 MiB → 413 payload_too_large, nothing created", async ({ api }) => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024), type: "badge" });
    await expectError(
      await api.post("/v1/designs", { data: big, headers: { "Content-Type": "application/json" } }),
      413,
      "payload_too_large",
    );
    // Size beats JSON syntax (row 6 before row 7).
    await expectError(
      await api.post("/v1/groups", { data: "[".repeat(1024 * 1024 + 1), headers: { "Content-Type": "application/json" } }),
      413,
      "payload_too_large",
    );
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("a chunked body over 1 MiB (no Content-Length) → 413 payload_too_large", async ({ server, org }) => {
    const url = new URL("/v1/designs", server.baseURL);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${org.token}`,
            "Service-Version": SERVICE_VERSION,
            "X-Forwarded-Proto": "https",
            "Content-Type": "application/json",
            "Transfer-Encoding": "chunked",
          },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", (e) =>
        (e as NodeJS.ErrnoException).code === "EPIPE" || (e as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(e),
      );
      req.write('{"type":"badge","name":"');
      const piece = "y".repeat(64 * 1024);
      for (let i = 0; i < 20; i++) req.write(piece); // 1.25 MiB
      req.end('"}');
    });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body).error.code).toBe("payload_too_large");
  });

  test("a body just under 1 MiB is not rejected for its size", async ({ api }) => {
    const body = JSON.stringify({ name: "n", type: "badge", pad: "x".repeat(1000 * 1000) });
    // Unknown field → validation_error (not 413): the size check passed.
    await expectError(
      await api.post("/v1/designs", { data: body, headers: { "Content-Type": "application/json" } }),
      400,
      "validation_error",
      { paths: ["pad"] },
    );
  });
});

test.describe("7. Invalid JSON", () => {
  const bodies: [string, string][] = [
    ["syntax error", '{"name": "x",'],
    ["empty body", ""],
    ["whitespace only", "   \n"],
    ["an array", '[{"name":"x"}]'],
    ["a string", '"hello"'],
    ["a number", "42"],
    ["null", "null"],
    ["true", "true"],
    ["form data", "name=x&type=badge"],
  ];
  for (const [label, raw] of bodies) {
    test(`POST with ${label} → 400 invalid_json, nothing created`, async ({ api }) => {
      await expectError(await api.post("/v1/designs", { data: raw, headers: { "Content-Type": "application/json" } }), 400, "invalid_json");
      await expectError(await api.post("/v1/groups", { data: raw, headers: { "Content-Type": "application/json" } }), 400, "invalid_json");
      expect(await listAll(api, "/v1/designs")).toEqual([]);
      expect(await listAll(api, "/v1/groups")).toEqual([]);
    });
  }

  test("PATCH with a non-object body → 400 invalid_json, nothing changed", async ({ api }) => {
    const design = await expectStatus(await api.post("/v1/designs", { data: { name: "Before", type: "badge" } }), 201);
    for (const raw of ["", "[]", '"Before"', "{,}"]) {
      await expectError(
        await api.patch(`/v1/designs/${design.id}`, { data: raw, headers: { "Content-Type": "application/json" } }),
        400,
        "invalid_json",
      );
    }
    expect(await expectStatus(await api.get(`/v1/designs/${design.id}`), 200)).toEqual(design);
  });

  test("POST without any body → 400 invalid_json", async ({ api }) => {
    await expectError(await api.post("/v1/groups"), 400, "invalid_json");
  });

  test("invalid JSON beats validation and not_found", async ({ api }) => {
    await expectError(
      await api.patch("/v1/groups/grp_does_not_exist", { data: "nope", headers: { "Content-Type": "application/json" } }),
      400,
      "invalid_json",
    );
  });
});

test.describe("8. Validation", () => {
  test("unknown top-level fields → validation_error naming each, nothing created", async ({ api }) => {
    const body = await expectError(
      await api.post("/v1/designs", { data: { name: "x", type: "badge", color: "red", extra: 1 } }),
      400,
      "validation_error",
      {
        paths: ["color", "extra"],
      },
    );
    expect(body.error.details!.length).toBe(2);
    await expectError(await api.post("/v1/groups", { data: { name: "x", designIds: ["a"], template: "y" } }), 400, "validation_error", {
      paths: ["template"],
    });
    expect(await listAll(api, "/v1/designs")).toEqual([]);
    expect(await listAll(api, "/v1/groups")).toEqual([]);
  });

  test("wrong types and missing required fields → validation_error with each path", async ({ api }) => {
    await expectError(await api.post("/v1/designs", { data: { name: 5, type: "poster" } }), 400, "validation_error", {
      paths: ["name", "type"],
      exactPaths: true,
    });
    await expectError(await api.post("/v1/designs", { data: {} }), 400, "validation_error", { paths: ["name", "type"], exactPaths: true });
    await expectError(await api.post("/v1/groups", { data: { name: ["x"], designIds: "dsn_1" } }), 400, "validation_error", {
      paths: ["name", "designIds"],
    });
    await expectError(await api.post("/v1/groups", { data: { name: "x", designIds: [1, "ok"] } }), 400, "validation_error", {
      paths: ["designIds[0]"],
    });
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("unknown query parameters → validation_error", async ({ api }) => {
    await expectError(await api.get("/v1/groups?sort=name"), 400, "validation_error", { paths: ["sort"] });
  });

  test("validation beats not_found (row 8 before row 9)", async ({ api }) => {
    await expectError(await api.patch("/v1/groups/grp_does_not_exist", { data: { name: 5 } }), 400, "validation_error", {
      paths: ["name"],
    });
    await expectError(await api.patch("/v1/designs/dsn_does_not_exist", { data: { colour: "red" } }), 400, "validation_error", {
      paths: ["colour"],
    });
  });
});

test.describe("9. Not found", () => {
  test("unknown ids → 404 not_found", async ({ api }) => {
    await expectError(await api.get("/v1/groups/grp_does_not_exist"), 404, "not_found");
    await expectError(await api.patch("/v1/groups/grp_does_not_exist", { data: { name: "x" } }), 404, "not_found");
    await expectError(await api.get("/v1/designs/dsn_does_not_exist"), 404, "not_found");
    await expectError(await api.patch("/v1/designs/dsn_does_not_exist", { data: { name: "x" } }), 404, "not_found");
    await expectError(await api.get(`/v1/groups/${encodeURIComponent("' OR '1'='1")}`), 404, "not_found");
    await expectError(await api.get(`/v1/designs/${"x".repeat(500)}`), 404, "not_found");
  });
});

test.describe("Unknown routes and methods", () => {
  for (const [method, path] of [
    ["GET", "/v1/nope"],
    ["POST", "/v1/nope"],
    ["GET", "/v1/groups/grp_1/designs/extra"],
    ["DELETE", "/v1/unknown/deeper/path"],
    ["GET", "/v1/Groups"],
  ] as const) {
    test(`${method} ${path} → JSON 404 not_found`, async ({ api }) => {
      const res = await api.fetch(path, { method });
      await expectError(res, 404, "not_found");
    });
  }

  test("GET /v1 itself → JSON 404 not_found (not an HTML page)", async ({ api }) => {
    await expectError(await api.get("/v1"), 404, "not_found");
  });

  test("unknown /v1 routes answer 404 even without a token or version", async ({ client }) => {
    await expectError(await (await client({ version: null })).get("/v1/nope"), 404, "not_found");
  });

  for (const [method, path, allowed] of [
    ["DELETE", "/v1/groups", ["GET", "POST"]],
    ["PUT", "/v1/groups", ["GET", "POST"]],
    ["PATCH", "/v1/groups", ["GET", "POST"]],
    ["POST", "/v1/groups/grp_1", ["GET", "PATCH", "DELETE"]],
    ["PUT", "/v1/groups/grp_1", ["GET", "PATCH", "DELETE"]],
    ["PATCH", "/v1/attributes", ["GET", "POST"]],
    ["DELETE", "/v1/designs", ["GET", "POST"]],
    ["POST", "/v1/designs/dsn_1", ["GET", "PATCH"]],
    ["DELETE", "/v1/designs/dsn_1", ["GET", "PATCH"]],
    ["POST", "/v1/openapi.json", ["GET"]],
  ] as const) {
    test(`${method} ${path} → 405 method_not_allowed with Allow`, async ({ api }) => {
      const res = await api.fetch(path, { method, data: {} });
      await expectError(res, 405, "method_not_allowed");
      const allow = (res.headers()["allow"] ?? "").split(",").map((s) => s.trim());
      for (const m of allowed) expect(allow).toContain(m);
      expect(allow).not.toContain(method);
    });
  }

  test("a 405 changes nothing", async ({ api }) => {
    const design = await expectStatus(await api.post("/v1/designs", { data: { name: "Keep", type: "badge" } }), 201);
    await expectError(await api.delete(`/v1/designs/${design.id}`), 405, "method_not_allowed");
    await expectError(await api.put(`/v1/designs/${design.id}`, { data: { name: "Changed" } }), 405, "method_not_allowed");
    expect(await expectStatus(await api.get(`/v1/designs/${design.id}`), 200)).toEqual(design);
  });
});

test.describe("X-Request-Id and RateLimit-* on every /v1 response", () => {
  type Case = [
    label: string,
    status: number,
    method: string,
    path: string,
    opts: { token?: boolean; version?: string | null; data?: string },
  ];
  const kinds: Case[] = [
    ["200 list", 200, "GET", "/v1/groups", { token: true }],
    ["400 missing_version", 400, "GET", "/v1/groups", { token: true, version: null }],
    ["400 invalid_json", 400, "POST", "/v1/groups", { token: true, data: "{" }],
    ["401 unauthorized", 401, "GET", "/v1/groups", {}],
    ["404 not_found (resource)", 404, "GET", "/v1/groups/grp_missing", { token: true }],
    ["404 not_found (unknown route)", 404, "GET", "/v1/no-such-route", { token: true }],
    ["405 method_not_allowed", 405, "DELETE", "/v1/groups", { token: true }],
  ];
  for (const [label, status, method, path, opts] of kinds) {
    test(`${label}: X-Request-Id generated, and echoed when sent`, async ({ client, org }) => {
      const c = await client({ token: opts.token ? org.token : undefined, version: opts.version });
      const send = (headers: Record<string, string> = {}) =>
        c.fetch(path, {
          method,
          headers: { "Content-Type": "application/json", ...headers },
          ...(opts.data !== undefined ? { data: opts.data } : {}),
        });
      const a = await send();
      const b = await send();
      expect(a.status()).toBe(status);
      const idA = a.headers()["x-request-id"];
      const idB = b.headers()["x-request-id"];
      expect(idA, "X-Request-Id generated").toBeTruthy();
      expect(idB).toBeTruthy();
      expect(idA).not.toBe(idB);
      const echoed = await send({ "X-Request-Id": "e2e-trace.42:abc" });
      expect(echoed.status()).toBe(status);
      expect(echoed.headers()["x-request-id"]).toBe("e2e-trace.42:abc");
    });

    test(`${label}: RateLimit-Limit/-Remaining/-Reset present`, async ({ client, org }) => {
      const c = await client({ token: opts.token ? org.token : undefined, version: opts.version });
      const res = await c.fetch(path, {
        method,
        headers: { "Content-Type": "application/json" },
        ...(opts.data !== undefined ? { data: opts.data } : {}),
      });
      expect(res.status()).toBe(status);
      for (const h of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) {
        expect(res.headers()[h], `${h} on ${method} ${path} (${status})`).toMatch(/^\d+$/);
      }
    });
  }

  test("OPTIONS on a /v1 route carries X-Request-Id", async ({ api }) => {
    const res = await api.fetch("/v1/groups", { method: "OPTIONS" });
    expect(res.headers()["x-request-id"], `OPTIONS /v1/groups → ${res.status()} ${JSON.stringify(res.headers())}`).toBeTruthy();
  });
});

test.describe("500 internal_server_error", () => {
  test("an unexpected failure answers the envelope with no stack and no SQL", async ({ scratchDatabase, startServer, client }) => {
    const databaseUrl = await scratchDatabase();
    const server = await startServer({ DATABASE_URL: databaseUrl });
    // On an empty database `npm start` seeds organization demo and prints its token once.
    await expect.poll(() => /cis_[0-9A-Za-z]{40}/.test(server.output()), { message: "demo token printed", timeout: 10_000 }).toBe(true);
    const token = server.output().match(/cis_[0-9A-Za-z]{40}/)![0];
    const c = await client({ baseURL: server.baseURL, token });
    await expectStatus(await c.get("/v1/groups"), 200);

    await execSql(databaseUrl, 'ALTER TABLE "GroupDesign" RENAME TO "GroupDesign_broken_by_e2e"');
    const res = await c.get("/v1/groups", { headers: { "X-Request-Id": "e2e-500" } });
    const body = await expectError(res, 500, "internal_server_error");
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error).sort()).toEqual(["code", "message"]);
    const text = JSON.stringify(body);
    for (const leak of ["GroupDesign", "SELECT", "select", "stack", "    at ", "prisma", "Prisma", "sqlite", "postgres", ".ts:", ".js:"]) {
      expect(text, `body leaks "${leak}"`).not.toContain(leak);
    }
    expect(res.headers()["x-request-id"]).toBe("e2e-500");
  });
});
