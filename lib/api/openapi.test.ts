import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute, endpoint, SERVICE_VERSION } from "./endpoint";
import { buildOpenApiDocument } from "./openapi";

type Parameter = { name: string; in: string; required?: boolean; schema?: unknown };
type Operation = { parameters: ({ $ref: string } | Parameter)[]; responses: Record<string, unknown>; security?: unknown[] };

const routes = [
  defineRoute("/v1/things", {
    GET: endpoint({
      tag: "Things",
      summary: "List",
      success: { status: 200, description: "Things", schema: z.array(z.string()) },
      handle: async () => ({ status: 200 }),
    }),
  }),
  defineRoute("/v1/public", {
    GET: endpoint({
      tag: "Reference",
      summary: "Public",
      auth: "none",
      success: { status: 200, description: "Public" },
      handle: async () => ({ status: 200 }),
    }),
  }),
];
const doc = buildOpenApiDocument(routes, "http://localhost:3000");
const operation = (path: string) => (doc.paths[path] as Record<string, Operation>).get!;

/** A parameter, its `$ref` to components resolved. */
function resolved(p: { $ref: string } | Parameter): Parameter {
  if (!("$ref" in p)) return p;
  return (doc.components.parameters as Record<string, Parameter>)[p.$ref.replace("#/components/parameters/", "")]!;
}

describe("the version requirement", () => {
  // A validating proxy (Prism) refuses a request that lacks a required header. Clients written for the
  // hosted API send only Certifier-Version, which the service accepts: neither header may be required.
  it("lists Service-Version and Certifier-Version, neither one required by itself", () => {
    const headers = operation("/v1/things")
      .parameters.map(resolved)
      .filter((p) => p.in === "header");
    expect(headers.map((h) => h.name).sort()).toEqual(["Certifier-Version", "Service-Version"]);
    for (const header of headers) {
      expect(header.required, header.name).toBe(false);
      expect(header.schema).toEqual({ type: "string", const: SERVICE_VERSION });
    }
  });

  it("still documents the answer to a request that sends neither (missing_version, 400)", () => {
    expect(JSON.stringify(operation("/v1/things").responses["400"])).toContain("missing_version");
  });

  it("asks nothing of token-free operations", () => {
    expect(
      operation("/v1/public")
        .parameters.map(resolved)
        .filter((p) => p.in === "header"),
    ).toEqual([]);
    expect(operation("/v1/public").security).toEqual([]);
  });
});

describe("every operation", () => {
  it("documents the validation error of an unknown query parameter and the internal error, token or not", () => {
    for (const path of ["/v1/things", "/v1/public"]) {
      expect(Object.keys(operation(path).responses), path).toEqual(expect.arrayContaining(["400", "500"]));
    }
  });
});

describe("info", () => {
  it("names the MIT license", () => {
    expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
  });
});
