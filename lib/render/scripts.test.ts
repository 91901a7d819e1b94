// Text in every bundled script: the PDF gives it back (pdftotext, reading order, right to left
// included), and hostile text (a 10,000-character right-to-left value, combining-mark floods, bidi
// controls, unpaired surrogates, five scripts in one name) renders within the usual bounds or is
// refused with a clear error.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import { DesignDocument } from "./document";
import { SEED_DESIGNS } from "../designs/seed-documents";
import { sampleAttributeValues } from "./attributes";
import { layoutDocument, renderPdf, renderPng, UnsupportedTextError, type TextPlan } from "./render";

const dir = mkdtempSync(path.join(tmpdir(), "render-scripts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pdftotext's plain text of a PDF, without the embedding marks it puts around right-to-left lines. */
function pdfText(pdf: Uint8Array): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"])
    .toString("utf8")
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, "");
}

const classic = DesignDocument.parse(SEED_DESIGNS[0]!.document);
const modern = DesignDocument.parse(SEED_DESIGNS[1]!.document);
const meta = (name: string) => ({
  title: `Advanced Data Analysis: ${name}`,
  author: "Northwind Institute",
  subject: "Advanced Data Analysis",
  url: "https://wallet.example.com/credentials/abc",
});

const NAMES = ["محمد علي", "דוד כהן", "अनन्या शर्मा", "สมชาย ใจดี", "সুমন দাস", "கார்த்திக் ராஜா", "زهرا رضایی", "Zoë Ångström-Núñez", "王小明"];

describe("the PDF's text layer", () => {
  for (const name of NAMES) {
    it(`pdftotext gives back "${name}" and the design's other texts, in reading order`, async () => {
      const values = { ...sampleAttributeValues("certificate"), "recipient.name": name };
      const text = pdfText(await renderPdf(classic, values, {}, meta(name)));
      expect(text).toContain(name);
      // Everything else too, top to bottom.
      const at = (s: string) => text.indexOf(s);
      expect(at("This is to certify that")).toBeGreaterThanOrEqual(0);
      expect(at("This is to certify that")).toBeLessThan(at(name));
      expect(at(name)).toBeLessThan(at("has successfully completed"));
    });
  }

  it("reads a Latin name with an Arabic group name, and an emoji, as written", async () => {
    const values = { ...sampleAttributeValues("certificate"), "recipient.name": "Li Na 🎓", "group.name": "تحليل البيانات المتقدم" };
    const text = pdfText(await renderPdf(modern, values, {}, meta("Li Na")));
    expect(text).toContain("Li Na 🎓");
    expect(text).toContain("تحليل البيانات المتقدم");
  });

  it("has the title and the design's language", async () => {
    const pdf = await PDFDocument.load(
      await renderPdf(classic, { ...sampleAttributeValues("certificate"), "recipient.name": "דוד כהן" }, {}, meta("דוד כהן")),
    );
    expect(pdf.getTitle()).toBe("Advanced Data Analysis: דוד כהן");
    expect((pdf.catalog.get(PDFName.of("Lang")) as PDFString).decodeText()).toBe(classic.locale);
  });
});

describe("hostile text", () => {
  const values = (name: string) => ({ ...sampleAttributeValues("certificate"), "recipient.name": name });
  const nameLines = async (name: string) => {
    const layout = await layoutDocument(classic, values(name));
    return layout.elements.find((e): e is TextPlan => e.kind === "text" && e.element.text.includes("[recipient.name]"))!;
  };

  it("a 10,000-character right-to-left value renders in bounds, cut with an ellipsis", async () => {
    const long = Array.from({ length: 2000 }, (_, i) => ["محمد", "علي", "فاطمة", "حسن"][i % 4])
      .join(" ")
      .slice(0, 10_000);
    const png = await renderPng(classic, values(long), {}, { widthPx: 800 });
    expect(png.byteLength).toBeGreaterThan(1000);
    const plan = await nameLines(long);
    expect(plan.fits).toBe(false);
    expect(plan.lines.length).toBeLessThanOrEqual(plan.element.maxLines);
    expect(plan.lines[plan.lines.length - 1]!.endsWith("…")).toBe(true);
    // Well under a second on a quiet machine; the test's own time limit catches a hang in the making
    // without failing on a machine busy with other work (no timing assertion).
  }, 30_000);

  it("a combining-mark flood (Zalgo) keeps at most 8 marks per character and says so", async () => {
    // Marks the bundled Latin faces have (their subsets leave most of U+0300-036F out: see below).
    const zalgo = "Z" + "\u0304\u0308\u0329".repeat(500) + "algo";
    const layout = await layoutDocument(classic, values(zalgo));
    expect(layout.warnings.some((w) => w.includes("combining marks"))).toBe(true);
    const plan = layout.elements.find((e): e is TextPlan => e.kind === "text" && e.element.text.includes("[recipient.name]"))!;
    // (NFC may fold the first mark into the letter: Ź.)
    expect([...plan.text.matchAll(/\p{M}/gu)].length).toBeLessThanOrEqual(8);
    expect(plan.text.length).toBeLessThan(20);
    await expect(renderPng(classic, values(zalgo), {}, { widthPx: 800 })).resolves.toBeInstanceOf(Uint8Array);
    // Marks no bundled face has are refused like any other character no font has, by code point.
    const error = await renderPng(classic, values("Z\u0302\u0306\u030a".repeat(100))).catch((e: unknown) => e);
    expect((error as UnsupportedTextError).message).toMatch(
      /^no bundled font can draw these characters: .*U\+0306.* \(from \[recipient\.name\]\)$/,
    );
  });

  it("bidi controls steer the layout and draw nothing (RLO, LRO, isolates, unbalanced)", async () => {
    for (const name of [
      "\u202eAlex Morgan",
      "\u202dمحمد علي\u202c",
      "\u2067Alex\u2069 \u2066علي\u2069",
      "\u202b\u202b\u202bAlex",
      "Alex\u2069\u202c",
    ]) {
      const plan = await nameLines(name);
      expect(plan.runs.length).toBeGreaterThan(0);
      await expect(renderPng(classic, values(name), {}, { widthPx: 400 })).resolves.toBeInstanceOf(Uint8Array);
    }
    // RLO draws "Alex" right to left: the A is the rightmost letter.
    const run = (await nameLines("\u202eAlex\u202c")).runs[0]!;
    const a = run.clusters.find((c) => c.text === "A")!;
    const x = run.clusters.find((c) => c.text === "x")!;
    expect(a.x).toBeGreaterThan(x.x);
  });

  it("an unpaired surrogate is refused, naming it by its code point", async () => {
    const error = await renderPng(classic, values("Alex \ud83d Morgan")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTextError);
    expect((error as UnsupportedTextError).message).toBe("no bundled font can draw these characters: U+D83D (from [recipient.name])");
  });

  it("a name mixing five scripts renders, each script in its own face, and reads back whole", async () => {
    const name = "Ana محمد דוד अनन्या 王";
    const plan = await nameLines(name);
    const faces = new Set(
      plan.runs.flatMap((r) => r.line.clusters.flatMap((c) => c.glyphs.map((g) => g.face.name.split(" ").slice(0, 3).join(" ")))),
    );
    expect([...faces]).toEqual(expect.arrayContaining(["Great Vibes", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari"]));
    const text = pdfText(await renderPdf(classic, values(name), {}, meta(name)));
    for (const word of name.split(" ")) expect(text).toContain(word);
  });
});
