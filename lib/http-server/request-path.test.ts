import { describe, expect, it } from "vitest";
import { hasMalformedPercentEncoding, rawPath } from "./request-path";

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

describe("hasMalformedPercentEncoding", () => {
  it("finds escapes that do not decode to UTF-8", () => {
    for (const path of ["/v1/credentials/%ff", "/credentials/%", "/x/%zz", "/organizations/%e0%a4/logo", "/%c0%af"]) {
      expect(hasMalformedPercentEncoding(path)).toBe(true);
    }
  });

  it("accepts valid escapes and plain paths", () => {
    for (const path of ["/", "/v1/credentials/abc", "/credentials/%C3%A9", "/a%2Fb", "/%E8%A8%BC"]) {
      expect(hasMalformedPercentEncoding(path)).toBe(false);
    }
  });
});
