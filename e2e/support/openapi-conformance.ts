// Every /v1 answer an API spec receives is checked against the served OpenAPI document: the status must
// be one the operation documents, and the body must match that status's schema. The `client` fixture
// (and so `api`) wraps its request context with `conformingContext`, so every spec is covered without
// asking for it; a mismatch fails the request that received it, naming the operation and the fields.
//
// Paths are matched as Next routes them: a literal segment wins over a `{param}` (POST
// /v1/credentials/search is the search, not a credential named "search"). A method the path does not
// document must be refused with 405 `method_not_allowed`; a path no route matches, 404 `not_found`.
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Schema = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

/** What the checker reads of an answer: a Playwright APIResponse, or a stand-in in the checker's own tests. */
export type AnswerToCheck = Pick<APIResponse, "url" | "status" | "headers" | "body">;

const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const ERROR_SCHEMA_REF = "#/components/schemas/Error";

/** Compiled once per document: the path templates in routing order and a validator per operation and status. */
export class OpenApiConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; literalSegments: number }[];

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.templates = Object.keys(doc.paths)
      .filter((p) => p.startsWith("/v1/"))
      .map((template) => ({
        template,
        pattern: new RegExp(
          `^${template
            .split("/")
            .map((s) => (/^\{\w+\}$/.test(s) ? "[^/]+" : escapeRegExp(s)))
            .join("/")}$`,
        ),
        literalSegments: template.split("/").filter((s) => s && !s.startsWith("{")).length,
      }))
      // More literal segments first: the route Next would pick among several that match.
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The problems with one answer (empty when it conforms); answers outside /v1 are not checked. */
  async problems(method: string, answer: AnswerToCheck): Promise<string[]> {
    const path = new URL(answer.url()).pathname;
    if (path !== "/v1" && !path.startsWith("/v1/")) return [];
    const status = answer.status();
    // A body that cannot be read (the test ran out of time and its context is gone) fails as itself.
    const body = await answer.body();
    const verb = method.toLowerCase();
    const route = this.templates.find((t) => t.pattern.test(path));
    const item = route ? this.doc.paths[route.template]! : undefined;
    // HEAD answers as GET would, without a body.
    if (verb === "head") {
      const bodyProblems = body.length === 0 ? [] : [`HEAD ${path} answered with a body`];
      if (item?.get) return this.statusProblems(`HEAD ${route!.template}`, status, item.get, bodyProblems);
      const expected = item ? 405 : 404;
      return status === expected ? bodyProblems : [`HEAD ${path} answered ${status}; expected ${expected}`, ...bodyProblems];
    }
    if (!route || !item) return this.errorProblems(`${method} ${path} (no such route)`, status, [404], body);
    // OPTIONS states what the route allows.
    if (verb === "options" && !item.options)
      return status === 204 ? [] : this.errorProblems(`OPTIONS ${route.template}`, status, [405], body);
    const operation = OPERATION_METHODS.includes(verb) ? item[verb] : undefined;
    if (!operation) return this.errorProblems(`${method} ${route.template} (not an operation)`, status, [405], body);
    const label = `${method.toUpperCase()} ${route.template}`;
    const statusProblems = this.statusProblems(label, status, operation, []);
    if (statusProblems.length) return statusProblems;
    const content = (operation.responses![String(status)] ?? operation.responses!.default)!.content;
    const schema = content?.["application/json"]?.schema;
    if (!schema) return body.length === 0 ? [] : [`${label} → ${status}: documented without a body, answered ${preview(body)}`];
    const contentType = answer.headers()["content-type"] ?? "";
    if (!contentType.includes("application/json"))
      return [`${label} → ${status}: documented as application/json, answered Content-Type "${contentType}"`];
    return this.bodyProblems(`${label} → ${status}`, this.validator(`${route.template} ${verb} ${status}`, schema), body);
  }

  private statusProblems(label: string, status: number, operation: Operation, otherProblems: string[]): string[] {
    const documented = Object.keys(operation.responses ?? {});
    if (!documented.includes(String(status)) && !documented.includes("default")) {
      return [
        `${label} answered ${status}, which its OpenAPI operation does not document (it documents ${documented.join(", ")})`,
        ...otherProblems,
      ];
    }
    return otherProblems;
  }

  /** An answer where no operation applies: the error envelope, with one of the expected statuses. */
  private errorProblems(label: string, status: number, expected: number[], body: Buffer): string[] {
    if (!expected.includes(status)) return [`${label} answered ${status}; expected ${expected.join(" or ")} in the error envelope`];
    return this.bodyProblems(`${label} → ${status}`, this.validator("error envelope", { $ref: ERROR_SCHEMA_REF }), body);
  }

  private bodyProblems(label: string, validate: ValidateFunction, body: Buffer): string[] {
    let value: unknown;
    try {
      value = JSON.parse(body.toString("utf8"));
    } catch {
      return [`${label}: the body is not JSON: ${preview(body)}`];
    }
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => `${label}: body${e.instancePath || ""} ${e.message ?? "is invalid"} ${JSON.stringify(e.params)} (body ${preview(body)})`);
  }

  private validator(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(inlineLocalRefs(schema, this.doc) as Schema);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/**
 * The schema with every `#/components/...` reference replaced by what it names, so that it compiles on
 * its own (its references point into the document, not into the schema). The document has no cycles.
 */
function inlineLocalRefs(value: unknown, doc: OpenApiDocument, depth = 0): unknown {
  if (depth > 64) throw new Error("OpenAPI document: $ref nesting too deep (a cycle?)");
  if (Array.isArray(value)) return value.map((v) => inlineLocalRefs(v, doc, depth + 1));
  if (!value || typeof value !== "object") return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/")) {
    let target: unknown = doc;
    for (const part of ref.slice(2).split("/"))
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (target === undefined) throw new Error(`OpenAPI document: ${ref} names nothing`);
    return inlineLocalRefs(target, doc, depth + 1);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineLocalRefs(v, doc, depth + 1)]));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function preview(body: Buffer): string {
  const text = body.toString("utf8");
  return text.length > 400 ? `${text.slice(0, 400)}…` : text || "(empty)";
}

/** Loads and compiles the document a server serves (the same on every server of a run: it is built from the code). */
export async function loadConformance(baseURL: string): Promise<OpenApiConformance> {
  const res = await fetch(new URL("/v1/openapi.json", baseURL));
  if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  return new OpenApiConformance((await res.json()) as OpenApiDocument);
}

const REQUEST_METHODS = new Set(["fetch", "get", "post", "put", "patch", "delete", "head"]);

/** The method a call of `APIRequestContext[name](urlOrRequest, options)` sends. */
function methodOf(name: string, args: unknown[]): string {
  if (name !== "fetch") return name.toUpperCase();
  const options = args[1] as { method?: string } | undefined;
  if (options?.method) return options.method.toUpperCase();
  const request = args[0] as { method?: () => string } | string;
  return typeof request === "object" && typeof request.method === "function" ? request.method().toUpperCase() : "GET";
}

/** The context, with every answer it receives checked against the document before the caller sees it. */
export function conformingContext(context: APIRequestContext, conformance: () => Promise<OpenApiConformance>): APIRequestContext {
  return new Proxy(context, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== "function") return value;
      if (typeof property !== "string" || !REQUEST_METHODS.has(property)) return value.bind(target);
      return async (...args: unknown[]) => {
        const answer = (await value.apply(target, args)) as APIResponse;
        const problems = await (await conformance()).problems(methodOf(property, args), answer);
        if (problems.length) throw new Error(`The answer does not match the OpenAPI document:\n  ${problems.join("\n  ")}`);
        return answer;
      };
    },
  });
}
