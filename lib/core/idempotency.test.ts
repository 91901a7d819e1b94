import { describe, expect, it } from "vitest";
import { canonicalJson, idempotencyKeyProblem, requestFingerprint } from "./idempotency";

describe("request fingerprints", () => {
  it("are equal for bodies that parse to the same value, whatever their key order", () => {
    const a = JSON.parse('{"a":1,"b":{"y":[1,{"q":2,"p":1}],"x":null}}');
    const b = JSON.parse('{ "b": { "x": null, "y": [1, {"p":1, "q":2}] }, "a": 1 }');
    expect(canonicalJson(a)).toBe('{"a":1,"b":{"x":null,"y":[1,{"p":1,"q":2}]}}');
    expect(requestFingerprint("POST", "/v1/groups", a)).toBe(requestFingerprint("post", "/v1/groups", b));
  });

  it("differ when the method, the path, a value or an array's order differs", () => {
    const base = requestFingerprint("POST", "/v1/groups", { a: [1, 2] });
    expect(requestFingerprint("PATCH", "/v1/groups", { a: [1, 2] })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/designs", { a: [1, 2] })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/groups", { a: [2, 1] })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/groups", { a: [1, "2"] })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/groups", { a: [1, 2], b: null })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it("tell a path from a body: the separator cannot be forged by either", () => {
    expect(requestFingerprint("POST", "/v1/a", { b: 1 })).not.toBe(requestFingerprint("POST", "/v1/a\n{", { b: 1 }));
    expect(requestFingerprint("DELETE", "/v1/x", undefined)).toBe(requestFingerprint("DELETE", "/v1/x", null));
  });
});

describe("Idempotency-Key values", () => {
  it("are 1..255 visible ASCII characters", () => {
    expect(idempotencyKeyProblem("a")).toBeNull();
    expect(idempotencyKeyProblem("x".repeat(255))).toBeNull();
    expect(idempotencyKeyProblem("order-42/retry:1~!")).toBeNull();
    expect(idempotencyKeyProblem("")).toMatch(/empty/);
    expect(idempotencyKeyProblem("x".repeat(256))).toMatch(/255/);
    for (const bad of ["a b", "a\tb", "a\u0001b", "ключ", "a\u007fb"])
      expect(idempotencyKeyProblem(bad), JSON.stringify(bad)).toMatch(/visible ASCII/);
  });
});
