import { describe, expect, it } from "vitest";
import { FONT_FAMILIES } from "./document";
import { cjkOrder, defaultFontLibrary, FontLibrary } from "./fonts";

const fonts = defaultFontLibrary();

describe("font coverage", () => {
  const names = [
    "王小明",
    "山田太郎",
    "김민준",
    "Zoë Ångström-Núñez",
    "François Müller",
    "Łukasz Żółć",
    "Nguyễn Thị Minh Khai",
    "Αλέξανδρος",
    "Дмитрий",
    "محمد علي",
    "زهرا رضایی",
    "عائشہ خان",
    "דוד כהן",
    "अनन्या शर्मा",
    "সুমন দাস",
    "கார்த்திக்",
    "สมชาย ใจดี",
    "Li Na 🎓",
    "👩🏽‍🎓 🇧🇷 ❤️",
  ];
  for (const family of FONT_FAMILIES) {
    for (const weight of [400, 700] as const) {
      it(`${family} ${weight} draws CJK, accented Latin, Vietnamese, Greek, Cyrillic, Arabic, Persian, Urdu, Hebrew, Devanagari, Bengali, Tamil and Thai names, and emoji`, async () => {
        for (const name of names) expect(await fonts.missingCharacters(name, family, weight), name).toEqual([]);
      });
    }
  }

  it("reports what no font can draw (the check can fail)", async () => {
    expect(await fonts.missingCharacters("Alex ሰላም", "Inter")).toEqual(["ሰ", "ላ", "ም"]);
    // An unpaired surrogate is no character at all.
    expect(await fonts.missingCharacters("Alex \ud800", "Inter")).toEqual(["\ud800"]);
    expect(await fonts.covers("𓀀", "Noto Serif")).toBe(false);
    expect(await fonts.covers("Alex Morgan", "Great Vibes")).toBe(true);
  });

  it("loads a script's face only when a text needs it", async () => {
    const fresh = new FontLibrary();
    // The first text loads its family (and the Latin fallbacks); another Latin text loads nothing more.
    await fresh.missingCharacters("Alex", "Inter");
    const base = fresh.bytesLoaded;
    await fresh.missingCharacters("Alex Morgan", "Inter");
    expect(fresh.bytesLoaded).toBe(base);
    await fresh.missingCharacters("דוד כהן", "Inter");
    // Noto Sans Hebrew alone (~9 KB), not every script face.
    expect(fresh.bytesLoaded - base).toBeGreaterThan(0);
    expect(fresh.bytesLoaded - base).toBeLessThan(20_000);
    await fresh.missingCharacters("Li Na 🎓", "Inter");
    expect(fresh.emoji.bytesLoaded).toBeGreaterThan(0);
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
