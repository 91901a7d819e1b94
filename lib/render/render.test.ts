import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { PDFDocument, PDFName, PDFDict, PDFArray, PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { documentProblems } from "../designs/document-problems";
import { canvasSize, DesignDocument, MAX_DOCUMENT_TEXT_CHARACTERS, type DesignDocumentInput } from "./document";
import { SEED_DESIGNS } from "../designs/seed-documents";
import { sampleAttributeValues } from "./attributes";
import { encodePng } from "./png";
import {
  RENDER_TEXT_BUDGET,
  layoutDocument,
  prepareRender,
  renderPdf,
  renderPng,
  renderSvg,
  unsupportedTextIn,
  UnsupportedTextError,
  type RenderAsset,
  type TextPlan,
} from "./render";

const LONG_NAME = "Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinha";
const PDF_META = {
  title: "Advanced Data Analysis: Alex Morgan",
  author: "Northwind Institute",
  subject: "Advanced Data Analysis",
  url: "https://wallet.example.com/credentials/abc",
};

function readPng(bytes: Uint8Array) {
  const buf = Buffer.from(bytes);
  expect(buf.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(buf.subarray(12, 16).toString("ascii")).toBe("IHDR");
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const colorType = buf[25];
  // Decode (the renderer writes unfiltered 8-bit RGBA) to check pixels.
  const idat: Buffer[] = [];
  for (let o = 8; o < buf.length;) {
    const len = buf.readUInt32BE(o);
    const type = buf.subarray(o + 4, o + 8).toString("ascii");
    if (type === "IDAT") idat.push(buf.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixel = (x: number, y: number) => {
    const row = y * (width * 4 + 1);
    expect(raw[row]).toBe(0);
    const o = row + 1 + x * 4;
    return [raw[o]!, raw[o + 1]!, raw[o + 2]!, raw[o + 3]!];
  };
  return { width, height, colorType, pixel };
}

function textPlan(layout: Awaited<ReturnType<typeof layoutDocument>>, id: string): TextPlan {
  const plan = layout.elements.find((e) => e.kind === "text" && e.element.id === id);
  if (!plan || plan.kind !== "text") throw new Error(`no text element ${id}`);
  return plan;
}

function doc(input: Omit<DesignDocumentInput, "version">): DesignDocument {
  return DesignDocument.parse({ version: 1, ...input });
}

describe("seeded designs", () => {
  it("are eleven: certificates (landscape and portrait) and badges of several shapes, each valid for its type with no assets", () => {
    expect(SEED_DESIGNS.map((s) => [s.name, s.type])).toEqual([
      ["Classic Certificate", "certificate"],
      ["Modern Certificate", "certificate"],
      ["Achievement Badge", "badge"],
      ["Elegant Certificate", "certificate"],
      ["Portrait Certificate", "certificate"],
      ["Bold Certificate", "certificate"],
      ["Course Certificate", "certificate"],
      ["Shield Badge", "badge"],
      ["Hexagon Badge", "badge"],
      ["Ribbon Badge", "badge"],
      ["Square Badge", "badge"],
    ]);
    for (const seed of SEED_DESIGNS) {
      const parsed = DesignDocument.safeParse(seed.document);
      expect(parsed.error?.issues ?? [], seed.name).toEqual([]);
      expect(documentProblems(parsed.data!, seed.type, new Set())).toEqual([]);
    }
  });

  for (const seed of SEED_DESIGNS) {
    describe(seed.name, () => {
      const d = DesignDocument.parse(seed.document);
      const values = sampleAttributeValues(seed.type);
      const { width, height } = canvasSize(d.canvas);

      it("shows the recipient, group, organization, dates, credential id and a QR code", () => {
        const texts = d.elements.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.text : ""));
        for (const attr of [
          "recipient.name",
          "group.name",
          "organization.name",
          "credential.issueDate",
          "credential.expiryDate",
          "credential.id",
        ]) {
          expect(
            texts.some((t) => t.includes(`[${attr}]`)),
            attr,
          ).toBe(true);
        }
        expect(d.elements.some((e) => e.type === "qr")).toBe(true);
        const recipient = d.elements.find((e) => e.type === "text" && e.text.includes("[recipient.name]"));
        expect(recipient?.type === "text" && recipient.shrinkToFit).toBe(true);
      });

      it("renders a 1600 px wide PNG", async () => {
        const png = readPng(await renderPng(d, values));
        expect(png.width).toBe(1600);
        expect(png.height).toBe(Math.round((1600 * height) / width));
        expect(png.colorType).toBe(6);
      });

      it("renders a PDF of the true page size with metadata and a link to the credential", async () => {
        const bytes = await renderPdf(d, values, {}, PDF_META);
        expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
        const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
        expect(pdf.getPageCount()).toBe(1);
        const page = pdf.getPage(0);
        expect(page.getSize()).toEqual({ width, height });
        expect(pdf.getTitle()).toBe(PDF_META.title);
        expect(pdf.getAuthor()).toBe(PDF_META.author);
        expect(pdf.getSubject()).toBe(PDF_META.subject);
        expect(pdf.getKeywords()).toBe(PDF_META.url);
        const annots = page.node.lookup(PDFName.of("Annots"), PDFArray);
        const link = annots.lookup(0, PDFDict).lookup(PDFName.of("A"), PDFDict);
        expect(link.lookup(PDFName.of("URI"), PDFString).decodeText()).toBe(PDF_META.url);
      });

      it("shrinks a 60-character name until it fits its box", async () => {
        expect([...LONG_NAME].length).toBe(60);
        const layout = await layoutDocument(d, { ...values, "recipient.name": LONG_NAME });
        const plan = textPlan(layout, "recipient");
        const el = plan.element;
        expect(plan.fits).toBe(true);
        expect(plan.fontSize).toBeLessThan(el.font.size);
        expect(plan.fontSize).toBeGreaterThanOrEqual(el.minSize);
        expect(plan.lines.join(" ").replace(/\s+/g, " ")).toBe(LONG_NAME);
        expect(plan.lines.length).toBeLessThanOrEqual(el.maxLines);
        expect(plan.lines.length * plan.lineBox).toBeLessThanOrEqual(el.height + 0.5);
        for (const w of plan.lineWidths) expect(w).toBeLessThanOrEqual(el.width);

        // The drawn glyphs stay in the box (give script swashes a little room).
        const prepared = await prepareRender(d, { ...values, "recipient.name": LONG_NAME });
        const lines = prepared.lines.get(plan.index)!;
        expect(lines).toHaveLength(plan.lines.length);
        for (const line of lines) {
          const xs = [...line.outline.d.matchAll(/[MLQC]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((m) => line.x + Number(m[1]) / 2);
          expect(Math.min(...xs)).toBeGreaterThanOrEqual(el.x - 0.1 * plan.fontSize);
          expect(Math.max(...xs)).toBeLessThanOrEqual(el.x + el.width + 0.1 * plan.fontSize);
        }
      });

      it("keeps a short name at the design's size", async () => {
        const layout = await layoutDocument(d, { ...values, "recipient.name": "Li Na" });
        const plan = textPlan(layout, "recipient");
        expect(plan.fontSize).toBe(plan.element.font.size);
        // (Great Vibes texts draw a thin space after each word space: its own is very narrow.)
        expect(plan.lines.map((l) => l.replace(/\s+/gu, " "))).toEqual(["Li Na"]);
      });

      it("renders Chinese, Japanese, Korean and accented names", async () => {
        for (const name of ["王小明", "山田太郎", "김민준", "Zoë Ångström-Núñez"]) {
          const layout = await layoutDocument(d, { ...values, "recipient.name": name });
          expect(textPlan(layout, "recipient").lines.join(" ").replace(/\s+/gu, " "), name).toBe(name);
          expect(layout.warnings).toEqual([]);
          readPng(await renderPng(d, { ...values, "recipient.name": name }, {}, { widthPx: 400 }));
        }
      });

      it("leaves out the expiry line when there is no expiry date", async () => {
        const layout = await layoutDocument(d, { ...values, "credential.expiryDate": null });
        expect(textPlan(layout, "expiry").lines).toEqual([]);
        const withExpiry = await layoutDocument(d, values);
        // In the design's own words and date style ("Valid until January 15, 2028", "valid_until: 2028-01-15").
        expect(textPlan(withExpiry, "expiry").lines).toHaveLength(1);
        expect(textPlan(withExpiry, "expiry").lines[0]).toMatch(/^valid.until:? (January 15, 2028|Jan 15, 2028|2028-01-15)$/i);
      });
    });
  }
});

describe("text", () => {
  const base = { canvas: { size: "A4" as const, orientation: "landscape" as const } };

  it("substitutes placeholders, renders unknown and null ones as empty, applies uppercase", async () => {
    const d = doc({
      ...base,
      elements: [
        { type: "text", id: "a", x: 10, y: 10, width: 500, height: 30, text: "Hi [recipient.name][custom.nope]! [group.name]", font: {} },
        { type: "text", id: "b", x: 10, y: 50, width: 500, height: 30, text: "[organization.name]", font: {}, uppercase: true },
        { type: "text", id: "c", x: 10, y: 90, width: 500, height: 30, text: "Expires [credential.expiryDate]", font: {} },
      ],
    });
    const layout = await layoutDocument(d, { "recipient.name": "Zoë", "group.name": null, "organization.name": "Straße Institut" });
    expect(textPlan(layout, "a").lines).toEqual(["Hi Zoë!"]);
    expect(textPlan(layout, "b").lines).toEqual(["STRASSE INSTITUT"]);
    // Every placeholder empty: the element, label included, is left out.
    expect(textPlan(layout, "c").lines).toEqual([]);
  });

  it("wraps onto maxLines lines and shrinks only as needed", async () => {
    const d = doc({
      ...base,
      elements: [
        {
          type: "text",
          id: "t",
          x: 10,
          y: 10,
          width: 300,
          height: 100,
          text: "[group.name]",
          font: { family: "Noto Serif", weight: 700, size: 24, lineHeight: 1.2 },
          maxLines: 3,
          shrinkToFit: true,
          minSize: 8,
        },
      ],
    });
    const layout = await layoutDocument(d, { "group.name": "Professional Certificate in Advanced Machine Learning Operations" });
    const plan = textPlan(layout, "t");
    expect(plan.fits).toBe(true);
    expect(plan.lines.length).toBeGreaterThan(1);
    expect(plan.lines.length).toBeLessThanOrEqual(3);
    expect(plan.lines.join(" ")).toBe("Professional Certificate in Advanced Machine Learning Operations");
  });

  it("keeps line breaks written in the template", async () => {
    const d = doc({
      ...base,
      elements: [
        {
          type: "text",
          id: "t",
          x: 10,
          y: 10,
          width: 400,
          height: 80,
          text: "Awarded to\n[recipient.name]",
          font: { size: 16 },
          maxLines: 3,
        },
      ],
    });
    const layout = await layoutDocument(d, { "recipient.name": "Li Na" });
    expect(textPlan(layout, "t").lines).toEqual(["Awarded to", "Li Na"]);
  });

  it("cuts text that cannot fit even at minSize with an ellipsis, and says so", async () => {
    const d = doc({
      ...base,
      elements: [
        {
          type: "text",
          id: "t",
          x: 10,
          y: 10,
          width: 60,
          height: 20,
          text: "[recipient.name]",
          font: { size: 16 },
          minSize: 12,
          maxLines: 1,
        },
      ],
    });
    const layout = await layoutDocument(d, { "recipient.name": LONG_NAME });
    const plan = textPlan(layout, "t");
    expect(plan.fits).toBe(false);
    expect(plan.fontSize).toBe(12);
    expect(plan.lines).toHaveLength(1);
    expect(plan.lines[0]!.endsWith("…")).toBe(true);
    expect(plan.lineWidths[0]).toBeLessThanOrEqual(60);
    expect(layout.warnings).toHaveLength(1);
    // The element is named among the overflowing ones, for the editor to outline.
    expect(layout.overflows).toEqual([0]);
  });

  it("names the texts that overflow their box: below the smallest size, past the last line, or taller than the box", async () => {
    const text = (over: Record<string, unknown>) => ({
      type: "text" as const,
      x: 10,
      y: 10,
      width: 200,
      height: 40,
      text: "[recipient.name]",
      font: { size: 20 },
      ...over,
    });
    const d = doc({
      ...base,
      elements: [
        text({}), // shrinks and fits
        text({ shrinkToFit: false }), // cut at its size
        text({ minSize: 18 }), // cannot shrink enough
        text({ maxLines: 2, minSize: 20, text: "[recipient.name] [recipient.name] [recipient.name]" }), // clipped at the second line
        text({ height: 10, font: { size: 30 }, minSize: 30 }), // one line is taller than the box
        { type: "rect", x: 0, y: 0, width: 10, height: 10 },
      ],
    });
    const layout = await layoutDocument(d, { "recipient.name": "Maximiliana Alexandra Konstantinopoulou" });
    expect(layout.overflows).toEqual([1, 2, 3, 4]);
    expect(layout.warnings.map((w) => w.split(":")[0])).toEqual(["element 1", "element 2", "element 3", "element 4"]);
    // A short name fits everywhere but in the box too low for one line.
    expect((await layoutDocument(d, { "recipient.name": "Al" })).overflows).toEqual([4]);
    // A check of some texts lays out only those.
    const some = await layoutDocument(d, { "recipient.name": "Maximiliana Alexandra Konstantinopoulou" }, { only: new Set([0, 2]) });
    expect(some.elements.map((plan) => plan.index)).toEqual([0, 2]);
    expect(some.overflows).toEqual([2]);
  });

  it("lays right-to-left text out right to left, and mixed text by the bidi algorithm", async () => {
    const d = doc({
      ...base,
      elements: [{ type: "text", id: "t", x: 10, y: 10, width: 300, height: 40, text: "[recipient.name]", font: {} }],
    });
    for (const name of ["דוד כהן", "محمد علي"]) {
      const plan = textPlan(await layoutDocument(d, { "recipient.name": name }), "t");
      const [run] = plan.runs;
      expect(run!.line.rtl).toBe(true);
      // The first word is read first and drawn rightmost.
      const first = run!.clusters[0]!;
      const last = run!.clusters[run!.clusters.length - 1]!;
      expect(first.x).toBeGreaterThan(last.x);
      expect(run!.clusters.map((c) => c.text).join("")).toBe(name);
    }
    // A Latin line with an Arabic word: the Latin reads left to right, the Arabic inside right to left.
    const mixed = textPlan(await layoutDocument(d, { "recipient.name": "Ali علي Ali" }), "t").runs[0]!;
    expect(mixed.line.rtl).toBe(false);
    const x = (ch: string) => mixed.clusters.find((c) => c.text === ch)!.x;
    expect(x("ع")).toBeGreaterThan(x("ي"));
    expect(x("A")).toBeLessThan(x("ع"));
  });

  it("joins Arabic letters and forms Devanagari conjuncts (shaping, not one glyph per character)", async () => {
    const d = doc({
      ...base,
      elements: [{ type: "text", id: "t", x: 10, y: 10, width: 300, height: 40, text: "[recipient.name]", font: {} }],
    });
    const glyphs = async (name: string) =>
      textPlan(await layoutDocument(d, { "recipient.name": name }), "t").runs[0]!.line.clusters.flatMap((c) => c.glyphs.map((g) => g.gid));
    // محمد: each letter takes its joined form, so the same letter (م) gets two different glyphs.
    const mhmd = await glyphs("محمد");
    expect(new Set(mhmd).size).toBe(mhmd.length);
    // In न्या the न and its virama become one glyph, the half form of the conjunct.
    const plan = textPlan(await layoutDocument(d, { "recipient.name": "अनन्या" }), "t");
    const half = plan.runs[0]!.line.clusters.find((c) => plan.runs[0]!.line.text.slice(c.start, c.end) === "न्")!;
    expect(half.glyphs).toHaveLength(1);
  });

  it("refuses characters no font has, naming them, unless asked to draw them anyway", async () => {
    const d = doc({ ...base, elements: [{ type: "text", x: 10, y: 10, width: 300, height: 40, text: "[recipient.name]", font: {} }] });
    const error = await renderPng(d, { "recipient.name": "Alex ሰላም" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTextError);
    expect((error as UnsupportedTextError).code).toBe("missing_glyphs");
    expect((error as UnsupportedTextError).characters).toEqual(["ሰ", "ላ", "ም"]);
    expect((error as UnsupportedTextError).message).toBe(
      "no bundled font can draw these characters: ሰ U+1230, ላ U+120B, ም U+121D (from [recipient.name])",
    );
    const layout = await layoutDocument(d, { "recipient.name": "Alex ሰላም" }, { unsupportedText: "render" });
    expect(layout.warnings).toHaveLength(1);
  });

  it("says without rendering what rendering would refuse, and nothing when it would draw", async () => {
    const d = doc({
      ...base,
      elements: [
        { type: "text", x: 10, y: 10, width: 300, height: 40, text: "Awarded to", font: {} },
        { type: "text", x: 10, y: 60, width: 300, height: 40, text: "[recipient.name]", font: {} },
        // Left out when the expiry date is empty, so what it would hold does not count.
        { type: "text", x: 10, y: 110, width: 300, height: 40, text: "Valid until [credential.expiryDate]", font: {} },
      ],
    });
    for (const name of [
      "Zoë Ångström-Núñez",
      "山田太郎",
      "김민준",
      "Ёлка Ωμέγα",
      "דוד כהן",
      "محمد علي",
      "प्रिया शर्मा",
      "สมชาย ใจดี",
      "Alex 🙂",
    ]) {
      expect(await unsupportedTextIn(d, { "recipient.name": name })).toBeNull();
      await expect(renderPng(d, { "recipient.name": name })).resolves.toBeInstanceOf(Uint8Array);
    }
    for (const name of ["Alex ሰላም", "𓀀 Ra", "Bad \ud83c name"]) {
      const found = await unsupportedTextIn(d, { "recipient.name": name });
      const thrown = await renderPng(d, { "recipient.name": name }).catch((e: unknown) => e);
      expect(found).toBeInstanceOf(UnsupportedTextError);
      expect(found?.code).toBe("missing_glyphs");
      expect(found?.elementIndex).toBe(1);
      expect(found?.message).toBe((thrown as UnsupportedTextError).message);
    }
    // An unpaired surrogate is named by its code point (it cannot be shown).
    expect((await unsupportedTextIn(d, { "recipient.name": "Bad \ud83c name" }))?.message).toContain("U+D83C (from [recipient.name])");
    // Editor previews draw missing glyphs anyway.
    expect(await unsupportedTextIn(d, { "recipient.name": "Alex ሰላም" }, { unsupportedText: "render" })).toBeNull();
  });
});

describe("shapes, images and output", () => {
  // A 16x16 baseline JPEG (CPython's test image python.jpg).
  const JPEG = Buffer.from(
    "/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolvw4KOp1KM6iCNvngZHwetf//Z",
    "base64",
  );

  async function pngAsset(): Promise<RenderAsset> {
    // 4x2: opaque red, opaque green / half-transparent blue, fully transparent.
    const px = new Uint8Array([
      255, 0, 0, 255, 0, 255, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 128, 0, 0, 0, 0, 0, 0, 255, 128, 0, 0, 0, 0,
    ]);
    return { mimeType: "image/png", data: await encodePng(px, 4, 2), width: 4, height: 2 };
  }

  it("draws the background colour, rects, borders, lines, QR codes and PNG/JPEG images", async () => {
    const d = doc({
      canvas: { size: "square" },
      background: { color: "#102030", image: { asset: "bg", fit: "cover", opacity: 0.5 } },
      elements: [
        { type: "border", inset: 10, thickness: 9, color: "#ff0000", style: "double", radius: 20 },
        { type: "rect", x: 100, y: 100, width: 100, height: 50, fill: "#00ff00", stroke: "#0000ff", strokeWidth: 4, radius: 10 },
        { type: "line", x1: 100, y1: 300, x2: 500, y2: 300, color: "#ffffff", thickness: 4 },
        { type: "line", x1: 100, y1: 320, x2: 500, y2: 400, color: "#ffffff80", thickness: 2 },
        { type: "qr", x: 400, y: 40, size: 120, color: "#000000", background: "#ffffff" },
        { type: "image", x: 250, y: 100, width: 100, height: 100, asset: "logo", fit: "contain", opacity: 1 },
        { type: "image", x: 250, y: 450, width: 100, height: 100, asset: "photo", fit: "cover", opacity: 0.8 },
      ],
    });
    const assets = {
      bg: await pngAsset(),
      logo: await pngAsset(),
      photo: { mimeType: "image/jpeg" as const, data: new Uint8Array(JPEG), width: 16, height: 16 },
    };
    const values = { "credential.url": "https://wallet.example.com/credentials/x" };
    const png = readPng(await renderPng(d, values, assets, { widthPx: 600 }));
    expect(png.width).toBe(600);
    expect(png.pixel(150, 125)).toEqual([0, 255, 0, 255]); // rect fill
    expect(png.pixel(101, 125)).toEqual([0, 0, 255, 255]); // rect stroke, inside the box
    expect(png.pixel(300, 300)).toEqual([255, 255, 255, 255]); // line
    expect(png.pixel(11, 300)).toEqual([255, 0, 0, 255]); // outer ring of the double border
    expect(png.pixel(14, 300)).not.toEqual([255, 0, 0, 255]); // the gap between the rings
    expect(png.pixel(17, 300)).toEqual([255, 0, 0, 255]); // inner ring
    expect(png.pixel(405, 45)).toEqual([255, 255, 255, 255]); // QR quiet zone
    const svg = await renderSvg(d, values, assets, { widthPx: 300 });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="300" height="300" viewBox="0 0 600 600">/);
    const pdf = await renderPdf(d, values, assets, { ...PDF_META, url: values["credential.url"] });
    const loaded = await PDFDocument.load(pdf);
    expect(loaded.getPage(0).getSize()).toEqual({ width: 600, height: 600 });
    // The PNG asset is embedded as raw pixels with a soft mask, the JPEG as DCT.
    const text = Buffer.from(pdf).toString("latin1");
    expect(text).toContain("/SMask");
    expect(text).toContain("/DCTDecode");
  });

  it("keeps a badge's transparent background transparent in the PNG", async () => {
    const badge = SEED_DESIGNS.find((s) => s.type === "badge")!;
    const png = readPng(await renderPng(DesignDocument.parse(badge.document), sampleAttributeValues("badge"), {}, { widthPx: 300 }));
    expect(png.pixel(0, 0)[3]).toBe(0);
    expect(png.pixel(150, 150)[3]).toBe(255);
  });

  // Decoding needs zbarimg (Debian: zbar-tools); skipped where it is not installed.
  it.skipIf(!existsSync("/usr/bin/zbarimg"))("draws QR codes that scan back to the credential URL", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "render-qr-"));
    try {
      for (const seed of SEED_DESIGNS) {
        const values = { ...sampleAttributeValues(seed.type), "credential.url": `https://wallet.example.com/credentials/${seed.type}-42` };
        const file = path.join(dir, `${seed.type}.png`);
        writeFileSync(file, await renderPng(DesignDocument.parse(seed.document), values, {}, { widthPx: 1000 }));
        const decoded = execFileSync("/usr/bin/zbarimg", ["-q", "--raw", file], { stdio: ["ignore", "pipe", "ignore"] })
          .toString()
          .trim();
        expect(decoded).toBe(values["credential.url"]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is deterministic", async () => {
    const seed = SEED_DESIGNS[0]!;
    const d = DesignDocument.parse(seed.document);
    const v = sampleAttributeValues(seed.type);
    expect(Buffer.from(await renderPng(d, v, {}, { widthPx: 500 })).equals(Buffer.from(await renderPng(d, v, {}, { widthPx: 500 })))).toBe(
      true,
    );
    expect(Buffer.from(await renderPdf(d, v, {}, PDF_META)).equals(Buffer.from(await renderPdf(d, v, {}, PDF_META)))).toBe(true);
  });
});

describe("the text budget", () => {
  it("cuts texts past RENDER_TEXT_BUDGET characters in element order, with an ellipsis and a warning", async () => {
    const element = {
      type: "text",
      x: 10,
      y: 10,
      width: 800,
      height: 500,
      text: "[custom.essay]",
      font: { size: 12 },
      maxLines: 20,
    } as const;
    const doc = DesignDocument.parse({
      version: 1,
      canvas: { size: "A4", orientation: "landscape" },
      elements: Array.from({ length: 5 }, () => element),
    });
    const layout = await layoutDocument(doc, { "custom.essay": "word ".repeat(1_800) }); // 9,000 characters each
    const texts = layout.elements.map((plan) => (plan.kind === "text" ? plan.text : ""));
    expect(texts.map((t) => [...t].length)).toEqual([9_000, 9_000, RENDER_TEXT_BUDGET - 18_000 + 1, 1, 1]);
    expect(texts[2]!.endsWith("…")).toBe(true);
    expect(layout.warnings.filter((w) => w.includes("text cut short"))).toEqual([
      `element 2: text cut short: a design draws at most ${RENDER_TEXT_BUDGET} characters in all`,
      `element 3: text cut short: a design draws at most ${RENDER_TEXT_BUDGET} characters in all`,
      `element 4: text cut short: a design draws at most ${RENDER_TEXT_BUDGET} characters in all`,
    ]);
  });

  it("refuses a document whose own texts add up to more than MAX_DOCUMENT_TEXT_CHARACTERS", () => {
    const text = { type: "text", x: 0, y: 0, width: 100, height: 20, text: "x".repeat(2_000), font: {} } as const;
    const result = DesignDocument.safeParse({ version: 1, canvas: { size: "A4" }, elements: Array.from({ length: 6 }, () => text) });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["elements", `the texts add up to 12000 characters; at most ${MAX_DOCUMENT_TEXT_CHARACTERS}`],
    ]);
    expect(DesignDocument.safeParse({ version: 1, canvas: { size: "A4" }, elements: Array.from({ length: 5 }, () => text) }).success).toBe(
      true,
    );
  });
});
