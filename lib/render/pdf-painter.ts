// The PDF painter: a prepared document as a one-page vector PDF on a page of the canvas's true size
// in points. Text lines are form XObjects of their glyph outlines (made once per outline per process)
// with an invisible text layer over them (pdf-text-layer.ts), colour emoji images rasterised from
// their SVG by resvg (as the PNG draws them), PNG images raw pixels with a soft mask, JPEGs passed
// through.
import { deflateSync } from "node:zlib";
import { renderAsync } from "@resvg/resvg-js";
import { PDFBool, PDFDocument, PDFName, PDFRawStream, PDFStream, PDFString, type PDFPage, type PDFRef } from "pdf-lib";
import type { RenderAsset } from "./assets";
import type { Rgba } from "./color";
import type { EmojiImage } from "./emoji";
import { LAYOUT_SCALE, type GlyphOutline, type PlacedEmoji } from "./glyph-outlines";
import { inkedRuns, paint, type Painter } from "./painter";
import { Content, n2, svgPathToPdf } from "./pdf-content";
import { decodePng, type DecodedPng } from "./png-decode";
import { unpremultiply } from "./png";
import { PdfTextLayer } from "./pdf-text-layer";
import { RESVG_BASE } from "./raster";
import type { BackgroundPlan, BorderPlan, ImageDrawing, ImagePlan, LinePlan, PreparedRender, QrPlan, RectPlan, TextPlan } from "./prepared";

export interface PdfMeta {
  /** Document title, e.g. "Advanced Data Analysis: Alex Morgan". */
  title: string;
  /** The issuing organization. */
  author: string;
  /** The group (course, achievement) name. */
  subject: string;
  /** The credential's wallet URL: stored as the keywords, and linked from QR codes. */
  url: string | null;
  /** Creator application name; defaults to "Credential Issuing Service". */
  creator?: string;
  /** Creation date; omitted for a byte-for-byte reproducible file. */
  createdAt?: Date;
}

type PdfForm = { bytes: Uint8Array; bbox: [number, number, number, number] };

/**
 * A text line's outline as a deflated PDF form XObject body, made once per outline and kept as long
 * as the outline is (glyph-outlines.ts caches outlines): a PDF then only compresses the lines new to the process.
 */
const forms = new WeakMap<GlyphOutline, PdfForm>();

/**
 * zlib level for the page's content and the text lines' forms: a new recipient's name is 20-30 KB of
 * path operators, which level 6 deflated in 2.5 ms per PDF and level 4 in 0.9 ms, for a PDF 4.5% larger
 * (the portrait certificate: 112 KB at level 6, 117 KB at 4, 123 KB at 3, 131 KB at 1).
 */
const PDF_DEFLATE_LEVEL = 4;

function pdfForm(outline: GlyphOutline): PdfForm {
  let form = forms.get(outline);
  if (!form) {
    const { ops, bbox } = svgPathToPdf(outline.d, LAYOUT_SCALE);
    form = { bytes: deflateSync(Buffer.from(`${ops} f`, "latin1"), { level: PDF_DEFLATE_LEVEL }), bbox };
    forms.set(outline, form);
  }
  return form;
}

/** Pixels per em of an emoji in the PDF: sharp printed at the sizes certificates use. */
const EMOJI_PX = 160;

const emojiRasters = new WeakMap<EmojiImage, Promise<DecodedPng>>();

/** An emoji's SVG rasterised by resvg (as the PNG is) into RGB and alpha planes, once per process. */
function emojiRaster(image: EmojiImage): Promise<DecodedPng> {
  let raster = emojiRasters.get(image);
  if (!raster) {
    raster = renderAsync(image.svg, { ...RESVG_BASE, fitTo: { mode: "width", value: EMOJI_PX } }).then((img) => {
      const px = img.pixels;
      unpremultiply(px);
      const count = img.width * img.height;
      const rgb = new Uint8Array(count * 3);
      const alpha = new Uint8Array(count);
      for (let i = 0; i < count; i++) {
        rgb[i * 3] = px[i * 4]!;
        rgb[i * 3 + 1] = px[i * 4 + 1]!;
        rgb[i * 3 + 2] = px[i * 4 + 2]!;
        alpha[i] = px[i * 4 + 3]!;
      }
      return { width: img.width, height: img.height, rgb: deflateSync(rgb), alpha: deflateSync(alpha) };
    });
    emojiRasters.set(image, raster);
  }
  return raster;
}

/** Draws onto one page's content stream, registering the page's resources (graphics states, forms, images) as it goes. */
/** Only images are drawn asynchronously (decoding, embedding); everything else at once. */
type Drawing = void | Promise<void>;

class PdfPainter implements Painter<Drawing> {
  readonly content: Content;
  /** Boxes (x, y, width, height; top-left points) to link to the credential's URL. */
  readonly links: [number, number, number, number][] = [];
  private readonly gsNames = new Map<number, string>();
  private readonly formNames = new Map<GlyphOutline, string>();
  private readonly imageNames = new Map<Uint8Array, string>();
  private readonly emojiNames = new Map<EmojiImage, string>();
  /** The page's real text, written over everything once the page is drawn. */
  readonly textLayer: PdfTextLayer;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly page: PDFPage,
    private readonly width: number,
    private readonly height: number,
  ) {
    this.content = new Content(height);
    this.textLayer = new PdfTextLayer(height);
  }

  private embedPixels(img: DecodedPng): PDFRef {
    const ctx = this.pdf.context;
    // Smooth when scaled, as the PNG (resvg) does.
    const base = {
      Type: "XObject",
      Subtype: "Image",
      Width: img.width,
      Height: img.height,
      BitsPerComponent: 8,
      Filter: "FlateDecode",
      Interpolate: true,
    };
    let smask: PDFRef | undefined;
    if (img.alpha) smask = ctx.register(PDFRawStream.of(ctx.obj({ ...base, ColorSpace: "DeviceGray" }), img.alpha));
    return ctx.register(PDFRawStream.of(ctx.obj({ ...base, ColorSpace: "DeviceRGB", ...(smask ? { SMask: smask } : {}) }), img.rgb));
  }

  private async drawEmoji({ image, x, y, size }: PlacedEmoji) {
    let name = this.emojiNames.get(image);
    if (!name) {
      name = this.page.node.newXObject("Em", this.embedPixels(await emojiRaster(image))).asString();
      this.emojiNames.set(image, name);
    }
    const c = this.content;
    c.op(`q ${n2(size)} 0 0 ${n2(size)} ${n2(x)} ${n2(c.y(y + size))} cm ${name} Do Q`);
  }

  private alpha(a: number) {
    if (a >= 1) return;
    const key = Math.round(a * 1000) / 1000;
    let name = this.gsNames.get(key);
    if (!name) {
      name = this.page.node.newExtGState("GS", this.pdf.context.obj({ Type: "ExtGState", ca: key, CA: key })).asString();
      this.gsNames.set(key, name);
    }
    this.content.op(`${name} gs`);
  }

  /** Opens a graphics state filling in `color`; the caller closes it with Q. */
  private beginFill(color: Rgba) {
    this.content.op("q");
    this.alpha(color.a);
    this.content.fillColor(color);
  }

  private async imageName(asset: RenderAsset): Promise<string> {
    let name = this.imageNames.get(asset.data);
    if (!name) {
      const ctx = this.pdf.context;
      let ref: PDFRef;
      if (asset.mimeType === "image/jpeg") {
        // pdf-lib passes JPEG bytes through (DCTDecode) after reading the header: cheap.
        const image = await this.pdf.embedJpg(asset.data);
        await image.embed();
        ref = image.ref;
        const stream = ctx.lookup(ref);
        if (stream instanceof PDFStream) stream.dict.set(PDFName.of("Interpolate"), PDFBool.True);
      } else {
        ref = this.embedPixels(await decodePng(asset));
      }
      name = this.page.node.newXObject("Im", ref).asString();
      this.imageNames.set(asset.data, name);
    }
    return name;
  }

  private async drawImage({ asset, x, y, w, h, fit, opacity, drawn }: ImageDrawing) {
    const name = await this.imageName(asset);
    const c = this.content;
    c.op("q");
    this.alpha(opacity);
    if (fit === "cover") c.op(`${n2(x)} ${n2(c.y(y + h))} ${n2(w)} ${n2(h)} re W n`);
    c.op(`${n2(drawn.w)} 0 0 ${n2(drawn.h)} ${n2(drawn.x)} ${n2(c.y(drawn.y + drawn.h))} cm ${name} Do Q`);
  }

  async background({ color, image }: BackgroundPlan) {
    const c = this.content;
    if (color.a > 0) {
      this.beginFill(color);
      c.op(`0 0 ${n2(this.width)} ${n2(this.height)} re f Q`);
    }
    if (image) await this.drawImage(image);
    // Nothing is drawn outside the page.
    c.op(`0 0 ${n2(this.width)} ${n2(this.height)} re W n`);
  }

  text(plan: TextPlan): Drawing {
    for (const run of plan.runs) this.textLayer.addRun(run);
    const emoji = plan.runs.flatMap((run) => run.emoji);
    this.drawOutlines(plan);
    if (emoji.length)
      return (async () => {
        for (const e of emoji) await this.drawEmoji(e);
      })();
  }

  private drawOutlines(plan: TextPlan) {
    const runs = inkedRuns(plan);
    if (!runs.length) return;
    const c = this.content;
    this.beginFill(plan.color);
    for (const run of runs) {
      let name = this.formNames.get(run.outline);
      if (!name) {
        const form = pdfForm(run.outline);
        const ctx = this.pdf.context;
        const ref = ctx.register(
          PDFRawStream.of(ctx.obj({ Type: "XObject", Subtype: "Form", BBox: form.bbox, Filter: "FlateDecode" }), form.bytes),
        );
        name = this.page.node.newXObject("Tx", ref).asString();
        this.formNames.set(run.outline, name);
      }
      // The form inherits the fill colour set above.
      c.op(`q 1 0 0 1 ${n2(run.x)} ${n2(c.y(run.y))} cm ${name} Do Q`);
    }
    c.op("Q");
  }

  rect({ fill, stroke }: RectPlan) {
    const c = this.content;
    if (fill) {
      this.beginFill(fill.color);
      c.roundedRect(fill.shape);
      c.op("f Q");
    }
    if (stroke) {
      this.beginFill(stroke.color);
      c.ring(stroke.ring);
      c.op("Q");
    }
  }

  line({ x1, y1, x2, y2, thickness, color }: LinePlan) {
    const c = this.content;
    c.op("q");
    this.alpha(color.a);
    c.strokeColor(color);
    c.op(`${n2(thickness)} w 0 J ${n2(x1)} ${n2(c.y(y1))} m ${n2(x2)} ${n2(c.y(y2))} l S Q`);
  }

  border({ color, rings }: BorderPlan) {
    this.beginFill(color);
    for (const ring of rings) this.content.ring(ring);
    this.content.op("Q");
  }

  qr({ x, y, size, background, code }: QrPlan) {
    const c = this.content;
    this.beginFill(background);
    c.op(`${n2(x)} ${n2(c.y(y + size))} ${n2(size)} ${n2(size)} re f Q`);
    if (!code) return;
    const m = code.moduleSize;
    this.beginFill(code.color);
    // Modules in their own unit grid: exact squares that abut without hairline gaps.
    c.op(`${n2(m)} 0 0 ${n2(-m)} ${n2(code.x)} ${n2(c.y(code.y))} cm`);
    c.op(code.runs.map(([col, row, n]) => `${col} ${row} ${n} 1 re`).join(" ") + " f Q");
    this.links.push([x, y, size, size]);
  }

  image({ image }: ImagePlan) {
    return this.drawImage(image);
  }
}

/**
 * The design as a one-page vector PDF of the canvas's true size in points, with title, author
 * (organization), subject (group), keywords (the credential URL) and a link from each QR code to
 * the URL. Text is drawn as glyph outlines (identical to the PNG) under an invisible text layer
 * (selectable, searchable); the document's language is the design's locale.
 */
export async function pdfOf(prepared: PreparedRender, meta: PdfMeta): Promise<Uint8Array> {
  const { width: W, height: H, background, elements } = prepared.layout;
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(meta.title, { showInWindowTitleBar: true });
  pdf.setAuthor(meta.author);
  pdf.setSubject(meta.subject);
  if (meta.url) pdf.setKeywords([meta.url]);
  pdf.setCreator(meta.creator ?? "Credential Issuing Service");
  pdf.setProducer("Credential Issuing Service (pdf-lib)");
  pdf.setLanguage(prepared.layout.locale);
  if (meta.createdAt) {
    pdf.setCreationDate(meta.createdAt);
    pdf.setModificationDate(meta.createdAt);
  }
  const page = pdf.addPage([W, H]);
  const ctx = pdf.context;

  const painter = new PdfPainter(pdf, page, W, H);
  await painter.background(background);
  for (const plan of elements) {
    const drawing = paint<Drawing>(painter, plan);
    if (drawing) await drawing;
  }
  const textLayer = await painter.textLayer.write(pdf, page, prepared.layout.fonts.root);
  if (textLayer) painter.content.op(textLayer);
  const content = deflateSync(Buffer.from(painter.content.parts.join("\n"), "latin1"), { level: PDF_DEFLATE_LEVEL });
  page.node.set(PDFName.of("Contents"), ctx.register(PDFRawStream.of(ctx.obj({ Filter: "FlateDecode" }), content)));

  if (meta.url) {
    for (const [x, y, w, h] of painter.links) {
      const annot = ctx.obj({
        Type: "Annot",
        Subtype: "Link",
        Rect: [x, H - y - h, x + w, H - y],
        Border: [0, 0, 0],
        A: { Type: "Action", S: "URI", URI: PDFString.of(meta.url) },
      });
      page.node.addAnnot(ctx.register(annot));
    }
  }
  return pdf.save({ useObjectStreams: true });
}
