import { describe, expect, it } from "vitest";
import { DesignDocument } from "../render/document";
import { unsupportedTextIn } from "../render/render";
import { LONG_RECIPIENT_NAMES, LONG_SAMPLE_SCRIPTS, longestOf } from "./long-samples";

describe("long sample names", () => {
  it("are written in the scripts they are said to be, each script at least once", () => {
    const used = new Set<string>();
    for (const name of LONG_RECIPIENT_NAMES) {
      const scripts = LONG_SAMPLE_SCRIPTS.filter((script) => new RegExp(`\\p{Script=${script}}`, "u").test(name));
      expect(scripts, name).toHaveLength(1);
      used.add(scripts[0]!);
    }
    expect([...used].sort()).toEqual([...LONG_SAMPLE_SCRIPTS].sort());
  });

  it("are full names (two words or more) every bundled font chain can draw", async () => {
    const doc = DesignDocument.parse({
      version: 1,
      canvas: { size: "A4" },
      elements: [{ type: "text", x: 0, y: 0, width: 500, height: 40, text: "[recipient.name]", font: {} }],
    });
    for (const name of LONG_RECIPIENT_NAMES) {
      expect(name.trim().split(/\s+/).length, name).toBeGreaterThanOrEqual(2);
      expect(await unsupportedTextIn(doc, { "recipient.name": name }), name).toBeNull();
    }
  });

  it("picks the longest name in characters", () => {
    expect(longestOf([])).toBeNull();
    expect(longestOf(["Ann", "Bartholomew", "Cy"])).toBe("Bartholomew");
    // Characters, not UTF-16 units.
    expect(longestOf(["𠀀𠀀𠀀", "abcd"])).toBe("abcd");
  });
});
