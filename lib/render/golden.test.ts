// Golden-image tests: every seeded design, rendered with fixed values (dates, ids, public id, wallet
// URL) at a short, a long (60 characters), three CJK and an accented name, Arabic, Hebrew,
// Devanagari and Thai names, an emoji and an Arabic group name, compared pixel by pixel to
// the baselines committed in e2e/golden/ (pixelmatch, with a small tolerance for antialiasing).
//
//   npx vitest run lib/render/golden.test.ts                    compare
//   UPDATE_GOLDEN=1 npx vitest run lib/render/golden.test.ts    rewrite the baselines (then look at them!)
//
// On a mismatch the actual rendering and a diff image (changed pixels in red) are written to
// test-results/golden/. Each variant also checks that every text the design renders is drawn with
// the font the design asks for: no character missing from the bundled fonts, and no character
// silently drawn by a fallback family (a Latin character by Inter inside a Great Vibes name, a CJK
// character by a font other than the expected Noto Sans).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { DesignDocument, placeholdersIn, type DesignDocumentInput } from "./document";
import { SEED_DESIGNS } from "../designs/seed-documents";
import type { AttributeValues } from "./attributes";
import { defaultFontLibrary, faceFor, needsGlyph } from "./fonts";
import { pngOf, prepareRender, rasterize, svgOf, type PreparedRender, type TextPlan } from "./render";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GOLDEN_DIR = path.join(ROOT, "e2e/golden");
const FAILURE_DIR = path.join(ROOT, "test-results/golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** Width of the golden renderings: close to the served 1600 px, at a third less repository weight. */
const WIDTH_PX = 1200;
/** Baselines are stored at maximum zlib compression (pixels are what is compared, not bytes). */
const BASELINE_COMPRESSION = 9;
/**
 * Tolerance. A pixel counts as different when its colour distance exceeds `THRESHOLD` (pixelmatch's
 * YIQ scale, 0..1) and pixelmatch does not classify it as antialiasing; a rendering matches when at
 * most `MAX_DIFF_PIXELS` pixels differ (~0.01% of a 1200 x 848 certificate). Measured here at 1200 px:
 * moving the recipient's name by 1 pt changes 426-2,293 pixels, one character of the 7 pt credential
 * id 164-431, so both fail; noise of a few levels per channel changes none, nor does moving everything by
 * 1/500 pt (see the self-checks below). The most fragile spot is the QR code: its modules' edges sit on
 * pixel boundaries, so a shift of 1/100 pt flips whole rows of them. Renderings are deterministic for
 * one resvg build (byte-identical here); another CPU architecture may need `UPDATE_GOLDEN=1` and a look.
 */
const THRESHOLD = 0.1;
const MAX_DIFF_PIXELS = 100;

const PUBLIC_ID = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f";
const FIXED: Record<string, string | null> = {
  "recipient.name": "Alex Morgan",
  "group.name": "Advanced Data Analysis",
  "organization.name": "Northwind Institute",
  "credential.issueDate": "2026-01-15",
  "credential.expiryDate": "2028-01-15",
  "credential.id": "cred_01jy6v7s2k8m4q9t3w5x7z2c4b",
  "credential.publicId": PUBLIC_ID,
  "credential.url": `https://wallet.example.com/credentials/${PUBLIC_ID}`,
};

const LONG_NAME = "Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinha";

type Variant = {
  key: string;
  values: Record<string, string | null>;
  /** The Noto Sans CJK family expected to draw the name's CJK characters (en-US designs, see fonts.ts cjkOrder). */
  cjkFamily?: string;
  /** The family expected to draw characters of another script than Latin and CJK. */
  scriptFamily?: string;
};

const VARIANTS: Variant[] = [
  { key: "short", values: { "recipient.name": "Li Na" } },
  { key: "long", values: { "recipient.name": LONG_NAME } },
  // Han-only names on an en-US design take the Simplified Chinese glyph style (no kana to say Japanese).
  { key: "zh", values: { "recipient.name": "王小明" }, cjkFamily: "Noto Sans SC" },
  { key: "ja", values: { "recipient.name": "山田太郎" }, cjkFamily: "Noto Sans SC" },
  { key: "ko", values: { "recipient.name": "김민준" }, cjkFamily: "Noto Sans KR" },
  // Accented Latin, and no expiry date: the "Valid until" line must vanish with its label.
  { key: "accents-no-expiry", values: { "recipient.name": "Zoë Ångström-Núñez", "credential.expiryDate": null } },
  // Shaped scripts: Arabic joined right to left, Hebrew right to left, Devanagari conjuncts and
  // reph, Thai vowels and tone marks; a colour emoji; and a Latin name with an Arabic group name.
  { key: "arabic", values: { "recipient.name": "محمد علي" }, scriptFamily: "Noto Sans Arabic" },
  { key: "hebrew", values: { "recipient.name": "דוד כהן" }, scriptFamily: "Noto Sans Hebrew" },
  { key: "devanagari", values: { "recipient.name": "अनन्या शर्मा" }, scriptFamily: "Noto Sans Devanagari" },
  { key: "thai", values: { "recipient.name": "สมชาย ใจดี" }, scriptFamily: "Noto Sans Thai" },
  { key: "emoji", values: { "recipient.name": "Li Na 🎓" } },
  { key: "mixed", values: { "recipient.name": "Alex Morgan", "group.name": "تحليل البيانات المتقدم" }, scriptFamily: "Noto Sans Arabic" },
];

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function decode(bytes: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

export type GoldenComparison = { width: number; height: number; diffPixels: number; diff: PNG | null; sizeMismatch: string | null };

/** Pixel differences between two PNGs (a size mismatch is reported, not compared). */
export function compareImages(expected: Uint8Array, actual: Uint8Array, withDiffImage = false): GoldenComparison {
  const a = decode(expected);
  const b = decode(actual);
  if (a.width !== b.width || a.height !== b.height) {
    return {
      width: b.width,
      height: b.height,
      diffPixels: Infinity,
      diff: null,
      sizeMismatch: `${a.width}x${a.height} expected, got ${b.width}x${b.height}`,
    };
  }
  const diff = withDiffImage ? new PNG({ width: a.width, height: a.height }) : null;
  const diffPixels = pixelmatch(a.data, b.data, diff?.data, a.width, a.height, { threshold: THRESHOLD, includeAA: false });
  return { width: a.width, height: a.height, diffPixels, diff, sizeMismatch: null };
}

const matches = (c: GoldenComparison) => c.sizeMismatch === null && c.diffPixels <= MAX_DIFF_PIXELS;

async function renderVariant(input: DesignDocumentInput, values: AttributeValues): Promise<{ prepared: PreparedRender; png: Uint8Array }> {
  const prepared = await prepareRender(DesignDocument.parse(input), values);
  return { prepared, png: await pngOf(prepared, WIDTH_PX, BASELINE_COMPRESSION) };
}

function textPlans(prepared: PreparedRender): TextPlan[] {
  return prepared.layout.elements.filter((e): e is TextPlan => e.kind === "text");
}

/** Letters and marks of scripts with their own Noto Sans face (Arabic, Hebrew, Indic, Thai). */
const SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Thai}]/u;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/u;

/**
 * Every character of the text a plan draws (after substitution and uppercasing, plus any ellipsis
 * the layout added) with the face that draws it, as `char→face` strings for characters drawn by a
 * face of another family than expected.
 */
function fallbacks(plan: TextPlan, cjkFamily: string | undefined, scriptFamily?: string): string[] {
  const family = plan.element.font.family;
  const wrong: string[] = [];
  // Colour emoji are pictures, not glyphs of a face.
  const text = [...plan.chain.emoji.keys()].reduce((t, e) => t.replaceAll(e, ""), plan.text + plan.lines.join(""));
  for (const ch of new Set(text)) {
    const cp = ch.codePointAt(0)!;
    if (!needsGlyph(cp)) continue;
    const face = faceFor(plan.chain, cp);
    const expected = CJK.test(ch) ? (cjkFamily ?? "Noto Sans") : SCRIPT.test(ch) ? (scriptFamily ?? "Noto Sans") : family;
    // Subset faces are named "<family>" or "<family> <subset>" ("Inter latin-ext", "Noto Sans SC 94").
    if (!face || !(face.name === expected || face.name.startsWith(`${expected} `))) wrong.push(`${ch}→${face?.name ?? "none"}`);
  }
  return wrong;
}

describe("golden images of the seeded designs", () => {
  for (const seed of SEED_DESIGNS) {
    describe(seed.name, () => {
      for (const variant of VARIANTS) {
        const values = { ...FIXED, ...variant.values };
        const file = `${slug(seed.name)}-${variant.key}.png`;

        it(`${variant.key}: matches e2e/golden/${file}`, async () => {
          const { png } = await renderVariant(seed.document, values);
          const baselinePath = path.join(GOLDEN_DIR, file);
          if (UPDATE) {
            mkdirSync(GOLDEN_DIR, { recursive: true });
            writeFileSync(baselinePath, png);
            return;
          }
          expect(
            existsSync(baselinePath),
            `no baseline ${baselinePath}: run UPDATE_GOLDEN=1 npx vitest run lib/render/golden.test.ts and look at it`,
          ).toBe(true);
          const comparison = compareImages(readFileSync(baselinePath), png, true);
          if (!matches(comparison)) {
            mkdirSync(FAILURE_DIR, { recursive: true });
            const base = path.join(FAILURE_DIR, file.replace(/\.png$/, ""));
            writeFileSync(`${base}-actual.png`, png);
            if (comparison.diff) writeFileSync(`${base}-diff.png`, PNG.sync.write(comparison.diff));
          }
          expect(comparison.sizeMismatch, file).toBeNull();
          expect(comparison.diffPixels, `${file}: pixels differing from the baseline (see ${FAILURE_DIR})`).toBeLessThanOrEqual(
            MAX_DIFF_PIXELS,
          );
        });

        it(`${variant.key}: every text fits and is drawn in its own font, nothing missing or fallen back`, async () => {
          const fonts = defaultFontLibrary();
          const doc = DesignDocument.parse(seed.document);
          const { prepared } = await renderVariant(seed.document, values);
          expect(prepared.layout.warnings).toEqual([]);
          const drawn = textPlans(prepared).filter((p) => p.lines.length > 0);
          expect(drawn.length).toBeGreaterThan(5);
          for (const plan of drawn) {
            const label = `element ${plan.element.id ?? plan.index} "${plan.text}"`;
            const weight = plan.element.font.weight;
            // The library's coverage API, on the text as drawn.
            expect(await fonts.missingCharacters(plan.text, plan.element.font.family, weight, doc.locale), label).toEqual([]);
            // And the face that actually draws each character belongs to the family asked for.
            expect(fallbacks(plan, variant.cjkFamily, variant.scriptFamily), label).toEqual([]);
            expect(plan.fits, label).toBe(true);
            expect(plan.lines.length, label).toBeLessThanOrEqual(plan.element.maxLines);
            expect(plan.text, `${label}: a raw placeholder`).not.toMatch(/\[[a-z]+\.[A-Za-z0-9_.-]+\]/);
          }
          // The name is drawn, in full, on its line(s).
          const recipient = drawn.find((p) => placeholdersIn(p.element.text).includes("recipient.name"))!;
          expect(recipient.lines.join(" ").replace(/[\s\u2009]+/g, " ")).toBe(values["recipient.name"]);
          // A missing expiry date takes its "Valid until" label with it.
          const expiry = textPlans(prepared).find((p) => placeholdersIn(p.element.text).includes("credential.expiryDate"));
          if (expiry) expect(expiry.lines.length > 0, "expiry line drawn").toBe(values["credential.expiryDate"] !== null);
        });
      }
    });
  }
});

describe("the golden comparison itself", () => {
  const seed = SEED_DESIGNS[0]!;
  const doc = seed.document;
  const values = { ...FIXED, "recipient.name": "Li Na" };

  it("renders deterministically: the same inputs twice give 0 differing pixels", async () => {
    const a = await renderVariant(doc, values);
    const b = await renderVariant(doc, values);
    expect(compareImages(a.png, b.png).diffPixels).toBe(0);
  });

  it("tolerates noise of a few levels per channel (antialiasing and encoder differences across machines)", async () => {
    const { png } = await renderVariant(doc, values);
    const img = decode(png);
    let seedState = 1;
    const rand = () => ((seedState = (seedState * 1103515245 + 12345) & 0x7fffffff) % 9) - 4; // -4..4
    for (let i = 0; i < img.data.length; i += 4) {
      for (let c = 0; c < 3; c++) img.data[i + c] = Math.max(0, Math.min(255, img.data[i + c]! + rand()));
    }
    const noisy = PNG.sync.write(img);
    expect(compareImages(png, noisy).diffPixels).toBe(0);
  });

  for (const seed of SEED_DESIGNS) {
    it(`${seed.name}: a real change fails (the name moved by 1 pt, one character of the credential id)`, async () => {
      const { png } = await renderVariant(seed.document, values);
      const moved = structuredClone(seed.document);
      const el = (moved.elements ?? []).find((e) => e.type === "text" && e.text.includes("[recipient.name]"))!;
      if (el.type === "text") el.y += 1;
      const shifted = await renderVariant(moved, values);
      expect(matches(compareImages(png, shifted.png))).toBe(false);
      // A character in the middle: in a left-aligned id, a change of the last one redraws that one
      // small glyph only (a "b" and a "c" share their bowl), under the tolerance at 7-8 pt.
      const otherId = await renderVariant(seed.document, { ...values, "credential.id": "cred_01jy6v7s2w8m4q9t3w5x7z2c4b" });
      expect(matches(compareImages(png, otherId.png))).toBe(false);
    });
  }

  // Larger shifts are real changes: at 1/100 pt (0.014 px) whole rows of QR modules, whose edges sit on
  // pixel boundaries, flip (23-123 pixels measured), and at 1/20 pt hundreds of glyph edges do.
  it("a whole-picture subpixel shift of 1/500 pt (float jitter) is tolerated", async () => {
    const { prepared, png } = await renderVariant(doc, values);
    const svg = svgOf(prepared);
    // Everything but the page background moves (moving that too would uncover a transparent edge).
    const shifted = svg
      .replace(/^(<svg[^>]*><rect [^>]*\/>)/, `$1<g transform="translate(0.002 0.002)">`)
      .replace(/<\/svg>\s*$/, "</g></svg>");
    expect(shifted).not.toBe(svg);
    const raster = await rasterize(shifted, WIDTH_PX, 3, true);
    expect(matches(compareImages(png, raster.png))).toBe(true);
  });

  it("the fallback check catches a character the design's font lacks (Greek in Great Vibes → Inter)", async () => {
    const prepared = await prepareRender(DesignDocument.parse(seed.document), { ...values, "recipient.name": "Σοφία Li" });
    const recipient = textPlans(prepared).find((p) => placeholdersIn(p.element.text).includes("recipient.name"))!;
    expect(recipient.element.font.family).toBe("Great Vibes");
    expect(fallbacks(recipient, undefined).map((s) => s.split("→")[1]!.split(" ")[0])).toContain("Inter");
    // ...and the coverage API reports characters no bundled font has (Ethiopic), not those an emoji image draws.
    expect(await defaultFontLibrary().missingCharacters("Li Na 🎓 ሰላም", "Great Vibes", 400)).toEqual(["ሰ", "ላ", "ም"]);
  });
});
