// The designer's font families: each loads (lazily: nothing is read before a text asks for it, and
// concurrent first uses share one read), draws in PNG and PDF (its text layer still gives the text
// back), and a family the catalog lacks is refused by the schema, naming the ones it has.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DesignDocument, FONT_CATALOG, FONT_FAMILIES, FONT_KINDS, familiesOfKind, TextElement, type FontFamily } from "./document";
import { faceFor, FontLibrary } from "./fonts";
import { layoutDocument, pngOf, pdfOf, prepareRender, type TextPlan } from "./render";

const dir = mkdtempSync(path.join(tmpdir(), "font-families-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdfText(pdf: Uint8Array): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"]).toString("utf8");
}

const SAMPLE = "Zoë Ångström 2026";

function sampleDocument(family: FontFamily, weight: 400 | 700) {
  return DesignDocument.parse({
    version: 1,
    canvas: { size: "square" },
    elements: [{ type: "text", id: "sample", x: 20, y: 20, width: 560, height: 80, text: SAMPLE, font: { family, weight, size: 40 } }],
  });
}

describe("the font catalog", () => {
  it("has at least 12 families, every kind among them", () => {
    expect(FONT_FAMILIES.length).toBeGreaterThanOrEqual(12);
    for (const kind of FONT_KINDS) expect(familiesOfKind(kind).length, kind).toBeGreaterThan(0);
    expect(FONT_KINDS.flatMap(familiesOfKind).sort()).toEqual([...FONT_FAMILIES].sort());
  });

  it("refuses a family it does not have, naming the ones it has", () => {
    const parsed = TextElement.safeParse({ type: "text", x: 0, y: 0, width: 10, height: 10, text: "x", font: { family: "Comic Sans MS" } });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    expect(issue.path).toEqual(["font", "family"]);
    expect(issue.message).toContain('"Inter"');
    expect(issue.message).toContain('"Pinyon Script"');
  });

  it("says in the schema what weight 700 means for a family with one weight", () => {
    const description = (TextElement.shape.font.shape.weight as { description?: string }).description ?? "";
    for (const family of FONT_FAMILIES.filter((f) => FONT_CATALOG[f].weights.length === 1)) expect(description).toContain(family);
    expect(description).toContain("nearest");
  });
});

describe("each family", () => {
  it("is read only when a text first asks for it, with the Latin fallbacks", async () => {
    const fonts = new FontLibrary();
    expect(fonts.bytesLoaded).toBe(0);
    expect(fonts.loadedFamilies()).toEqual([]);
    await fonts.missingCharacters("Alex Morgan", "Cinzel", 700);
    expect(fonts.loadedFamilies().sort()).toEqual(["Cinzel 700", "Inter 700", "Noto Serif 700"]);
    const afterCinzel = fonts.bytesLoaded;
    // Again: nothing more is read.
    await fonts.missingCharacters("Sam Lee", "Cinzel", 700);
    expect(fonts.bytesLoaded).toBe(afterCinzel);
  });

  it("is read once for concurrent first uses", async () => {
    const fonts = new FontLibrary();
    const [a, b] = await Promise.all([fonts.loadFamily("Lora", 400), fonts.loadFamily("Lora", 400)]);
    expect(a).toBe(b);
    const once = fonts.bytesLoaded;
    const single = new FontLibrary();
    await single.loadFamily("Lora", 400);
    expect(once).toBe(single.bytesLoaded);
  });

  it("draws 700 in its one weight where it has only 400 (the same faces)", async () => {
    const fonts = new FontLibrary();
    for (const family of ["Great Vibes", "Pinyon Script", "Abril Fatface"] as const) {
      expect(await fonts.loadFamily(family, 700)).toBe(await fonts.loadFamily(family, 400));
    }
  });

  for (const family of FONT_FAMILIES) {
    for (const weight of [400, 700] as const) {
      it(`${family} ${weight} draws a sample in its own face, in PNG and PDF (text layer searchable)`, async () => {
        const doc = sampleDocument(family, weight);
        const layout = await layoutDocument(doc, {});
        const plan = layout.elements[0] as TextPlan;
        // Every character of the sample is drawn by the family's own faces (no fallback).
        const drawnBy = new Set([...SAMPLE.replace(/ /g, "")].map((ch) => faceFor(plan.chain, ch.codePointAt(0)!)?.name));
        expect(
          [...drawnBy].every((name) => name === family || name?.startsWith(`${family} `)),
          [...drawnBy].join(),
        ).toBe(true);
        expect(plan.chain.faces[0]!.weight).toBe(FONT_CATALOG[family].weights.includes(weight) ? weight : 400);
        expect(plan.fits).toBe(true);
        const prepared = await prepareRender(doc, {});
        const run = prepared.lines.get(0)![0]!;
        expect(run.outline.d.length).toBeGreaterThan(100);
        const png = await pngOf(prepared, 300);
        expect(png.byteLength).toBeGreaterThan(500);
        const text = pdfText(await pdfOf(prepared, { title: family, author: "", subject: "", url: null }));
        expect(text.replace(/\s+/g, " ").trim()).toBe(SAMPLE);
      });
    }
  }
});
