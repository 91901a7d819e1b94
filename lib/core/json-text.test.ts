import { describe, expect, it } from "vitest";
import { jsonDepthExcess, JsonTooDeepError, MAX_JSON_DEPTH, parseUntrustedJson } from "./json-text";

const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const objects = (depth: number, key = "a") => `{"${key}":`.repeat(depth) + "1" + "}".repeat(depth);

describe("jsonDepthExcess", () => {
  it("allows exactly the limit and refuses one level more, arrays and objects alike", () => {
    expect(jsonDepthExcess(arrays(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonDepthExcess(objects(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonDepthExcess(arrays(MAX_JSON_DEPTH + 1))).toBeInstanceOf(JsonTooDeepError);
    expect(jsonDepthExcess(objects(MAX_JSON_DEPTH + 1))).toBeInstanceOf(JsonTooDeepError);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: "[".repeat(5000), b: '\\"{{{{' + "{".repeat(5000), c: ["]]]", "\\"] });
    expect(jsonDepthExcess(text)).toBeNull();
    expect(jsonDepthExcess(`{"x":"\\"[[[","y":${arrays(3)}}`, 4)).toBeNull();
    expect(jsonDepthExcess(`{"x":"\\"[[[","y":${arrays(3)}}`, 3)).not.toBeNull();
  });

  it("names the top-level member that nests too deeply", () => {
    const text = `{"name":"x","list":[1,{"a":"}"}], "credential" : ${objects(200)}}`;
    expect(jsonDepthExcess(text)?.field).toBe("credential");
    expect(jsonDepthExcess(`{"we\\"ird":${arrays(200)}}`)?.field).toBe('we"ird');
    expect(jsonDepthExcess(arrays(200))?.field).toBeNull();
  });

  it("scans a megabyte of nesting quickly and without recursion", () => {
    const started = performance.now();
    expect(jsonDepthExcess(arrays(500_000))).not.toBeNull();
    expect(jsonDepthExcess(JSON.stringify({ s: "x".repeat(1024 * 1024) }))).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("parseUntrustedJson", () => {
  it("parses what fits and throws the depth error before parsing what does not", () => {
    expect(parseUntrustedJson('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(() => parseUntrustedJson(objects(5000))).toThrow(JsonTooDeepError);
    expect(() => parseUntrustedJson("{")).toThrow(SyntaxError);
  });
});
