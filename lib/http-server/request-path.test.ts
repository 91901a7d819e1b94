import { describe, expect, it } from "vitest";
import { pathNamesNothing, rawPath } from "./request-path";

describe("rawPath", () => {
  it("is the path as sent, still encoded, without query or fragment", () => {
    expect(rawPath("/v1/credentials/%ff?x=%zz")).toBe("/v1/credentials/%ff");
    expect(rawPath("/a%20b#frag")).toBe("/a%20b");
    expect(rawPath(undefined)).toBe("/");
  });

  it("takes the path of an absolute-form target, and is null for a target that is no URL", () => {
    expect(rawPath("http://example.com/docs?x=1")).toBe("/docs");
    expect(rawPath("http://[::1:bad/docs")).toBeNull();
  });
});

describe("pathNamesNothing", () => {
  it("finds escapes that do not decode to UTF-8", () => {
    for (const path of ["/v1/credentials/%ff", "/credentials/%", "/x/%zz", "/organizations/%e0%a4/logo", "/%c0%af"]) {
      expect(pathNamesNothing(path)).toBe(true);
    }
  });

  it("finds control characters, encoded or not", () => {
    for (const path of ["/organizations/%00/logo", "/v1/credentials/a%0Ab", "/credentials/x%7f", "/a\tb"]) {
      expect(pathNamesNothing(path)).toBe(true);
    }
  });

  it("accepts valid escapes and plain paths", () => {
    for (const path of ["/", "/v1/credentials/abc", "/credentials/%C3%A9", "/a%2Fb", "/%E8%A8%BC", "/a%20b"]) {
      expect(pathNamesNothing(path)).toBe(false);
    }
  });
});
