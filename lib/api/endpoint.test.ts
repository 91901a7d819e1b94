import { describe, expect, it } from "vitest";
import { ApiError } from "../core/errors";
import { MAX_JSON_DEPTH } from "../core/json-text";
import { BodyAbandonedError, parseJsonObject, protoKeyPaths, readBody } from "./endpoint";

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

describe("protoKeyPaths", () => {
  it("finds __proto__ keys at any depth, with their paths", () => {
    const value = JSON.parse('{"a":[{"b":1},{"__proto__":{"x":1}}],"c":{"d":{"__proto__":null}}}');
    expect(protoKeyPaths(value)).toEqual([
      ["a", 1, "__proto__"],
      ["c", "d", "__proto__"],
    ]);
  });

  it("walks bodies nested far deeper than the call stack allows", () => {
    const depth = 100_000;
    const text = `{"filter":${'{"NOT":'.repeat(depth)}{}${"}".repeat(depth)}}`;
    expect(protoKeyPaths(JSON.parse(text))).toEqual([]);
  });
});

describe("parseJsonObject", () => {
  it("refuses a body nested deeper than the limit as a validation error naming its field, before parsing it", () => {
    const deep = (depth: number) => `{"credential":${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}}`;
    expect(parseJsonObject(deep(MAX_JSON_DEPTH - 2))).toHaveProperty("credential");
    for (const depth of [MAX_JSON_DEPTH, 5_000, 100_000]) {
      const error = catchError(() => parseJsonObject(deep(depth)));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).toBody()).toEqual({
        error: {
          code: "validation_error",
          message: `credential: nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
          details: [{ path: "credential", message: `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep` }],
        },
      });
    }
    expect(catchError(() => parseJsonObject("[".repeat(200)))).toMatchObject({ code: "validation_error", details: [{ path: "(body)" }] });
    // The deepest search filter the grammar takes (32 levels of AND arrays, nested recipient fields) fits.
    let filter = '{"recipient":{"name":{"contains":"Ada"}}}';
    for (let i = 0; i < 32; i++) filter = `{"AND":[${filter}]}`;
    expect(() => parseJsonObject(`{"filter":${filter}}`)).not.toThrow();
    expect(catchError(() => parseJsonObject('{"a":[}'))).toMatchObject({ code: "invalid_json" });
  });
});

describe("readBody", () => {
  it("reports a body that stops arriving (the client left, or was dropped as too slow) as abandoned, not as a failure", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a"'));
        setTimeout(() => controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" })), 5);
      },
    });
    const request = new Request("http://localhost/v1/groups", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readBody(request)).rejects.toBeInstanceOf(BodyAbandonedError);
  });
});
