// GET /v1/openapi.json: a valid-looking OpenAPI 3.1 document that lists every /v1 route of the app
// (every app/v1/**/route.ts except the catch-all) with exactly the methods it answers.
import { readdirSync } from "node:fs";
import path from "node:path";
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { ROOT } from "../support/servers";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** `/v1/...` paths of the route files, `[id]` → `{id}`; catch-all segments excluded. */
function routePaths(): string[] {
  const base = path.join(ROOT, "app/v1");
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith("[...") || entry.name.startsWith("[[...")) continue;
        if (entry.name.startsWith("(") || entry.name.startsWith("_")) {
          walk(path.join(dir, entry.name), segments); // route groups and private folders add no segment
          continue;
        }
        walk(path.join(dir, entry.name), [...segments, entry.name.replace(/^\[(\w+)\]$/, "{$1}")]);
      } else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) {
        found.push(`/v1${segments.length ? "/" + segments.join("/") : ""}`);
      }
    }
  };
  walk(base, []);
  return found.sort();
}

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { responses: Record<string, unknown>; operationId?: string; parameters?: unknown[] }>>;
  components?: Record<string, Record<string, unknown>>;
};

async function fetchDoc(client: (o?: object) => Promise<import("@playwright/test").APIRequestContext>): Promise<Doc> {
  const anonymous = await client({ version: null });
  const res = await anonymous.get("/v1/openapi.json");
  expect(res.headers()["content-type"]).toContain("application/json");
  return expectStatus(res, 200);
}

test("served without a token or version, as OpenAPI 3.1 with resolvable $refs", async ({ client }) => {
  const doc = await fetchDoc(client);
  expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  expect(typeof doc.info.title).toBe("string");
  expect(doc.info.title.length).toBeGreaterThan(0);
  expect(typeof doc.info.version).toBe("string");
  expect(typeof doc.paths).toBe("object");

  const operationIds = new Set<string>();
  for (const [p, item] of Object.entries(doc.paths)) {
    // Besides /v1, only the public verifiable-credential documents, each naming the server that
    // serves it (the wallet's, for credential.json) and needing no token.
    if (!p.startsWith("/v1/")) {
      expect(["/credentials/{publicId}/credential.json", "/organizations/{slug}/status/{list}"], p).toContain(p);
      expect(Object.keys(item), p).toEqual(["get"]);
      const get = (item as Record<string, { servers?: unknown[]; security?: unknown[] }>).get!;
      expect(get.servers, p).toHaveLength(1);
      expect(get.security, p).toEqual([]);
    }
    const params = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete", "head", "options", "trace"].includes(method)) continue;
      const statuses = Object.keys(op.responses ?? {});
      expect(
        statuses.some((s) => /^2\d\d$/.test(s)),
        `${method} ${p} has a success response`,
      ).toBe(true);
      if (op.operationId) {
        expect(operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        operationIds.add(op.operationId);
      }
      const declared = (op.parameters ?? []).filter(
        (x): x is { in: string; name: string } => typeof x === "object" && x !== null && "in" in x,
      );
      for (const name of params) {
        expect(
          declared.some((d) => d.in === "path" && d.name === name),
          `${method} ${p} declares path parameter ${name}`,
        ).toBe(true);
      }
    }
  }

  // Every local $ref points at something in the document.
  const refs: string[] = [];
  const collect = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string") refs.push(x);
        else collect(x);
      }
    }
  };
  collect(doc);
  for (const ref of refs) {
    expect(ref.startsWith("#/"), ref).toBe(true);
    let target: unknown = doc;
    for (const part of ref.slice(2).split("/"))
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    expect(target, `$ref ${ref} resolves`).toBeDefined();
  }
});

test("lists every /v1 route file with exactly the methods it answers", async ({ client, api }) => {
  const doc = await fetchDoc(client);
  const routes = routePaths();
  expect(routes.length).toBeGreaterThan(0);
  expect(
    Object.keys(doc.paths)
      .filter((p) => p.startsWith("/v1/"))
      .sort(),
  ).toEqual(routes);

  for (const route of routes) {
    const concrete = route.replace(/\{\w+\}/g, "e2e-probe-id");
    for (const method of METHODS) {
      // Probing is harmless: no body (invalid_json), or an id that does not exist (not_found).
      const res = await api.fetch(concrete, { method });
      const answers = res.status() !== 405;
      const listed = Boolean(doc.paths[route]?.[method.toLowerCase()]);
      expect(listed, `${method} ${route}: answered ${res.status()}, ${listed ? "listed" : "not listed"} in the OpenAPI document`).toBe(
        answers,
      );
    }
  }
});

test("info names the MIT license; GET /v1/openapi.json documents itself", async ({ client }) => {
  const doc = (await fetchDoc(client)) as Doc & { info: { license?: unknown } };
  expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
  const self = doc.paths["/v1/openapi.json"]?.get as
    { security?: unknown[]; responses: Record<string, { content?: Record<string, unknown> }> } | undefined;
  expect(self?.security).toEqual([]);
  expect(Object.keys(self?.responses["200"]?.content ?? {})).toEqual(["application/json"]);
});

test("either version header satisfies the document: neither is a required parameter, both are described", async ({ client }) => {
  const doc = await fetchDoc(client);
  const parameters = doc.components!.parameters as Record<string, { name: string; in: string; required?: boolean; description?: string }>;
  const versionHeaders = Object.values(parameters).filter((p) => p.in === "header" && /^(service|certifier)-version$/i.test(p.name));
  expect(versionHeaders.map((p) => p.name).sort()).toEqual(["Certifier-Version", "Service-Version"]);
  for (const header of versionHeaders) {
    expect(header.required, header.name).toBe(false);
    expect(header.description, header.name).toMatch(/missing_version/);
  }
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const refs = (op.parameters ?? []).map((x) => (x as { $ref?: string }).$ref);
      const tokenFree = (op as { security?: unknown[] }).security?.length === 0;
      // Every operation that needs a token lists both names, so a generated client can send either.
      expect(refs.includes("#/components/parameters/ServiceVersion"), `${method} ${p}`).toBe(!tokenFree);
      expect(refs.includes("#/components/parameters/CertifierVersion"), `${method} ${p}`).toBe(!tokenFree);
    }
  }
});

test("a client that sends only Certifier-Version gets documented answers", async ({ client, org }) => {
  // The request context checks each answer against the document (support/openapi-conformance.ts).
  const legacy = await client({ token: org.token, version: null, headers: { "Certifier-Version": SERVICE_VERSION } });
  await expectStatus(await legacy.get("/v1/groups"), 200);
  const neither = await client({ token: org.token, version: null });
  expect((await neither.get("/v1/groups")).status()).toBe(400);
});

test.describe("the conformance check every API spec's answers go through", () => {
  const answer = (url: string, status: number, body: unknown, contentType = "application/json") => ({
    url: () => url,
    status: () => status,
    headers: () => ({ "content-type": contentType }),
    body: async () => Buffer.from(body === undefined ? "" : JSON.stringify(body)),
  });

  test("refuses an undocumented status, a body that does not match, and a non-envelope error", async ({ openApiConformance, server }) => {
    const check = await openApiConformance();
    const base = server.baseURL;
    expect(await check.problems("GET", answer(`${base}/v1/groups`, 418, { error: { code: "conflict", message: "x" } }))).toEqual([
      expect.stringContaining("does not document"),
    ]);
    const groupProblems = await check.problems("GET", answer(`${base}/v1/groups/g1`, 200, { id: "g1" }));
    expect(groupProblems.length).toBeGreaterThan(0);
    expect(groupProblems.join("\n")).toMatch(/must have required property/);
    expect((await check.problems("GET", answer(`${base}/v1/groups/g1`, 404, { message: "gone" }))).length).toBeGreaterThan(0);
    expect((await check.problems("POST", answer(`${base}/v1/no-such-thing`, 200, {}))).length).toBeGreaterThan(0);
    expect((await check.problems("DELETE", answer(`${base}/v1/designs/d1`, 204, undefined))).length).toBeGreaterThan(0);
  });

  test("accepts what the service answers, routing a literal segment before a parameter", async ({ openApiConformance, server }) => {
    const check = await openApiConformance();
    const base = server.baseURL;
    const notFound = { error: { code: "not_found", message: "Not found." } };
    expect(await check.problems("GET", answer(`${base}/v1/groups/g1`, 404, notFound))).toEqual([]);
    expect(await check.problems("POST", answer(`${base}/v1/no-such-thing`, 404, notFound))).toEqual([]);
    expect(
      await check.problems(
        "GET",
        answer(`${base}/v1/credentials/search`, 405, { error: { code: "method_not_allowed", message: "POST only." } }),
      ),
    ).toEqual([]);
    expect(
      await check.problems("POST", answer(`${base}/v1/credentials/search`, 200, { data: [], pagination: { prev: null, next: null } })),
    ).toEqual([]);
    expect(await check.problems("GET", answer(`${base}/not-v1/anything`, 418, "teapot", "text/plain"))).toEqual([]);
  });
});
