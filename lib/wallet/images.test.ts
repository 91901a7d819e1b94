import { describe, expect, it } from "vitest";
import { previewAtWidth, previewSrcSet } from "./images";

describe("previewSrcSet", () => {
  it("lists the smaller widths, then the full size", () => {
    const url = "https://x.example/previews/0123456789abcdef0123456789abcdef01234567.png";
    expect(previewSrcSet(url)).toBe(`${url}?w=480 480w, ${url}?w=800 800w, ${url}?w=1200 1200w, ${url} 1600w`);
    expect(previewAtWidth(`${url}?v=1`, 800)).toBe(`${url}?v=1&w=800`);
  });
});
