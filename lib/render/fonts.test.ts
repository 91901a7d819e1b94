import { describe, expect, it } from "vitest";
import { FONT_FAMILIES } from "./document";
import { cjkOrder, defaultFontLibrary } from "./fonts";

const fonts = defaultFontLibrary();

describe("font coverage", () => {
  const names = ["王小明", "山田太郎", "김민준", "Zoë Ångström-Núñez", "François Müller", "Łukasz Żółć", "Nguyễn Thị Minh Khai", "Αλέξανδρος", "Дмитрий"];
  for (const family of FONT_FAMILIES) {
    for (const weight of [400, 700] as const) {
      it(`${family} ${weight} draws CJK, accented Latin, Vietnamese, Greek and Cyrillic names`, async () => {
        for (const name of names) expect(await fonts.missingCharacters(name, family, weight), name).toEqual([]);
      });
    }
  }

  it("reports what no font can draw (the check can fail)", async () => {
    expect(await fonts.missingCharacters("Alex 🙂", "Inter")).toEqual(["🙂"]);
    expect(await fonts.missingCharacters("สมชาย", "Inter")).not.toEqual([]);
    expect(await fonts.covers("שלום", "Noto Serif")).toBe(false);
    expect(await fonts.covers("Alex Morgan", "Great Vibes")).toBe(true);
  });

  it("loads only the CJK subsets a text needs", async () => {
    const before = fonts.bytesLoaded;
    await fonts.missingCharacters("陈静", "Inter");
    // A couple of ~50 KB slices, not the 4.7 MB of the whole font.
    expect(fonts.bytesLoaded - before).toBeLessThan(400_000);
  });

  it("prefers the CJK font matching the script or locale", () => {
    expect(cjkOrder("김민준")[0]).toBe("kr");
    expect(cjkOrder("やまだ")[0]).toBe("jp");
    expect(cjkOrder("山田太郎", "ja-JP")[0]).toBe("jp");
    expect(cjkOrder("王小明", "en-US")[0]).toBe("sc");
  });
});
