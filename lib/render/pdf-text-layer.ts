// The PDF's real text: an invisible text layer (text rendering mode 3, the technique OCR'd scans
// use) over the drawn glyph outlines, so the recipient's name and every other text can be
// selected, copied, searched and read aloud while the page looks exactly as the PNG.
//
// Each shaped cluster (a letter, a ligature, an Indic syllable, an emoji) is one character code of a
// Type0 font whose ToUnicode CMap maps it to the cluster's text, shown at the cluster's place and
// stretched to its width; clusters are written in reading (logical) order, line by line, element by
// element, so text extraction (pdftotext, screen readers) gets right-to-left text in the order it is
// read. The embedded font program is a one-glyph subset of Inter (via fontkit): nothing of it is ever
// painted, but PDF/A-minded validators want every font embedded.
import fontkit from "@pdf-lib/fontkit";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { PDFHexString, PDFRawStream, type PDFDocument, type PDFPage, type PDFRef } from "pdf-lib";
import type { TextRun } from "./glyph-outlines";
import { n2 } from "./pdf-content";

const FONT_NAME = "AAAAAA+TextLayer";
/** Character codes are 2 bytes (Identity-H): at most this many distinct clusters per page. */
const MAX_CODES = 0xfffe;

let fontProgram: Promise<Uint8Array> | null = null;

/** Inter's .notdef and space as a TrueType font (~0.5 KB), made once per process. */
function textLayerFontProgram(root: string): Promise<Uint8Array> {
  fontProgram ??= readFile(path.join(root, "node_modules/@fontsource/inter/files/inter-latin-400-normal.woff")).then(
    (data) =>
      new Promise<Uint8Array>((resolve) => {
        const font = fontkit.create(data);
        const subset = font.createSubset();
        subset.includeGlyph(font.glyphForCodePoint(32));
        const parts: Uint8Array[] = [];
        const stream = subset.encodeStream();
        stream.on("data", (d: Uint8Array) => parts.push(d));
        stream.on("end", () => resolve(Buffer.concat(parts)));
      }),
  );
  return fontProgram;
}

const utf16Hex = (s: string) => Buffer.from(s, "utf16le").swap16().toString("hex").toUpperCase();
const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");

/** Collects the text of a page's runs, then writes it as one BT ... ET block with its font. */
export class PdfTextLayer {
  private readonly codes = new Map<string, number>();
  private readonly ops: string[] = [];
  private lastWasSpace = true;

  constructor(private readonly pageHeight: number) {}

  /** Adds a line's clusters, in reading order (each line ends a word: extraction sees lines by position). */
  addRun(run: TextRun): void {
    const baseline = this.pageHeight - (run.y + run.baseline);
    const size = run.style.fontSize;
    for (const cluster of run.clusters) {
      // Controls (bidi marks, joiners alone) have no text to give; runs of spaces read as one.
      const text = cluster.text.replace(/[\p{Cc}\p{Cf}]/gu, "").replace(/\s+/gu, " ");
      if (!text || (text === " " && this.lastWasSpace)) continue;
      this.lastWasSpace = text === " ";
      let code = this.codes.get(text);
      if (code === undefined) {
        if (this.codes.size >= MAX_CODES) continue;
        code = this.codes.size + 1;
        this.codes.set(text, code);
      }
      // The font's one glyph is 1 unit wide at size 1: the matrix stretches it to the cluster.
      this.ops.push(`${n2(Math.max(cluster.width, 0.01))} 0 0 ${n2(size)} ${n2(cluster.x)} ${n2(baseline)} Tm <${hex4(code)}> Tj`);
    }
    this.lastWasSpace = true;
  }

  get empty(): boolean {
    return this.ops.length === 0;
  }

  /** Registers the font on the page and returns the content-stream operators of the layer. */
  async write(pdf: PDFDocument, page: PDFPage, root: string): Promise<string> {
    if (this.empty) return "";
    const font = await this.font(pdf, root);
    const name = page.node.newFontDictionary("TL", font).asString();
    return `BT 3 Tr ${name} 1 Tf\n${this.ops.join("\n")}\nET`;
  }

  private async font(pdf: PDFDocument, root: string): Promise<PDFRef> {
    const ctx = pdf.context;
    const count = this.codes.size + 1;
    const stream = (dict: Record<string, unknown>, bytes: Uint8Array) =>
      ctx.register(PDFRawStream.of(ctx.obj({ ...dict, Filter: "FlateDecode" }), deflateSync(bytes)));

    const program = await textLayerFontProgram(root);
    const fontFile = stream({ Length1: program.length }, program);
    const descriptor = ctx.register(
      ctx.obj({
        Type: "FontDescriptor",
        FontName: FONT_NAME,
        Flags: 4,
        FontBBox: [0, -250, 1000, 1000],
        ItalicAngle: 0,
        Ascent: 1000,
        Descent: -250,
        CapHeight: 700,
        StemV: 80,
        FontFile2: fontFile,
      }),
    );
    // Every code draws glyph 0: only the ToUnicode mapping matters.
    const cidToGid = stream({}, new Uint8Array(count * 2));
    const cidFont = ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "CIDFontType2",
        BaseFont: FONT_NAME,
        CIDSystemInfo: { Registry: PDFHexString.fromText("Adobe"), Ordering: PDFHexString.fromText("Identity"), Supplement: 0 },
        FontDescriptor: descriptor,
        DW: 1000,
        CIDToGIDMap: cidToGid,
      }),
    );
    const entries = [...this.codes].map(([text, code]) => `<${hex4(code)}> <${utf16Hex(text)}>`);
    const blocks: string[] = [];
    for (let i = 0; i < entries.length; i += 100) {
      const block = entries.slice(i, i + 100);
      blocks.push(`${block.length} beginbfchar\n${block.join("\n")}\nendbfchar`);
    }
    const cmap =
      "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
      "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n" +
      "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n" +
      blocks.join("\n") +
      "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend";
    const toUnicode = stream({}, Buffer.from(cmap, "latin1"));
    return ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "Type0",
        BaseFont: FONT_NAME,
        Encoding: "Identity-H",
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    );
  }
}
