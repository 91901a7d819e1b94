import { describe, expect, it } from "vitest";
import { parseJsonObject, protoKeyPaths } from "./endpoint";

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
    expect(() => parseJsonObject(text)).not.toThrow();
  });
});
