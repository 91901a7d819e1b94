import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS } from "@/lib/api/endpoint";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { ApiRouter } from "@/lib/http-server/api-routes";
import { allV1Routes, publicDocumentPaths } from "./openapi.json/endpoints";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const apiPathOf = (file: string) =>
  "/" +
  path
    .dirname(path.relative("app", file))
    .split(path.sep)
    .map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))
    .join("/");

describe("the OpenAPI document", () => {
  const doc = buildOpenApiDocument(allV1Routes(), "http://localhost:3000", publicDocumentPaths());
  const files = routeFiles("app/v1").filter((f) => !f.includes("[...path]"));

  it("documents every /v1 route file", () => {
    const documented = Object.keys(doc.paths)
      .filter((p) => p.startsWith("/v1/"))
      .sort();
    expect(files.map(apiPathOf).sort()).toEqual(documented);
  });

  it("documents every method a route answers (and only those)", async () => {
    for (const file of files) {
      const route = allV1Routes().find((r) => r.path === apiPathOf(file))!;
      const answered = HTTP_METHODS.filter((m) => route.endpoints[m]).map((m) => m.toLowerCase());
      expect(Object.keys(doc.paths[route.path]!).sort()).toEqual(answered.sort());
    }
  });

  it("is OpenAPI 3.1 with a request body schema for every body", () => {
    expect(doc.openapi).toBe("3.1.0");
    const post = (doc.paths["/v1/groups"] as Record<string, { requestBody?: unknown }>).post!;
    expect(JSON.stringify(post.requestBody)).toContain("designIds");
  });

  it("documents the public verifiable-credential documents, token-free, on the server that serves them", () => {
    for (const path of ["/credentials/{publicId}/credential.json", "/organizations/{slug}/status/{list}"]) {
      const get = (doc.paths[path] as Record<string, { security: unknown[]; servers: unknown[]; responses: Record<string, unknown> }>).get!;
      expect(get.security).toEqual([]);
      expect(get.servers).toHaveLength(1);
      expect(Object.keys(get.responses)).toEqual(["200", "304", "404"]);
    }
    expect(JSON.stringify(doc.paths["/v1/credentials/{id}/verifiable-credential"])).toContain("eddsa-rdfc-2022");
  });

  it("describes recipient.id on create and create-issue-send as optional and null only", () => {
    for (const path of ["/v1/credentials", "/v1/credentials/create-issue-send"]) {
      const post = (doc.paths[path] as Record<string, { requestBody: { content: Record<string, { schema: Record<string, any> }> } }>).post!;
      const recipient = post.requestBody.content["application/json"]!.schema.properties.recipient;
      expect(recipient.properties.id, path).toMatchObject({ type: "null" });
      expect(recipient.required, path).toEqual(["name"]);
      expect(recipient.additionalProperties, path).toBe(false);
    }
  });

  it("documents itself: GET /v1/openapi.json, token-free, answering an OpenAPI document", () => {
    const get = (
      doc.paths["/v1/openapi.json"] as Record<
        string,
        { security: unknown[]; responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }> }> }
      >
    ).get!;
    expect(get.security).toEqual([]);
    expect(get.responses["200"]!.content!["application/json"]!.schema.required).toEqual(
      expect.arrayContaining(["openapi", "info", "paths"]),
    );
  });
});

describe("the server's /v1 router (lib/http-server/api-routes.ts)", () => {
  const router = new ApiRouter(allV1Routes());

  it("calls the handlers Next calls: each folder's route.ts exports the route of its own path", async () => {
    for (const file of routeFiles("app/v1").filter((f) => !f.includes("[...path]"))) {
      const exported = (await import(`./${path.relative("app/v1", file)}`)) as Record<string, unknown>;
      const route = router.match(apiPathOf(file).replace(/\{(\w+)\}/g, "$1_01abc"))!.route;
      for (const method of [...HTTP_METHODS, "HEAD", "OPTIONS"] as const)
        expect(exported[method], `${file} ${method}`).toBe(route.handlers[method]);
    }
  });

  it("maps every route's own path, with plain ids, onto that route and no other", () => {
    for (const route of allV1Routes()) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}_01abc`);
      expect(router.match(path)?.route.path, path).toBe(route.path);
    }
  });
});
