// The design document: a versioned JSON layout for one design template (certificate or badge), the
// model the renderer draws. Coordinates are in PDF points (1/72 inch) with the origin at the top
// left, so a certificate's canvas is its true paper size and the PDF page needs no conversion. PNG
// renders scale it. Rules that tie a document to a stored design (its type, its uploaded images)
// live with the designs (lib/designs/document-problems.ts).
import { z } from "zod";
import { multiLineText, singleLineText } from "../core/text";

// The design editor parses documents with these schemas in the browser, where zod would first probe
// whether it may compile code (`Function("")`): the page's Content-Security-Policy refuses that and the
// browser reports a violation, even though zod catches it. On the server the compiled parsers stay.
if (typeof window !== "undefined") z.config({ jitless: true });

export const DESIGN_DOCUMENT_VERSION = 1;

export const DESIGN_TYPES = ["certificate", "badge"] as const;
export type DesignType = (typeof DESIGN_TYPES)[number];

/** Paper sizes in points, portrait (width < height). */
export const PAPER_SIZES = {
  A4: { width: 595, height: 842 },
  Letter: { width: 612, height: 792 },
} as const;
export const BADGE_SIZE = 600;

/**
 * The curated, bundled font families (OFL, from @fontsource), grouped by kind in the designer. Texts
 * in scripts a family lacks fall back to Inter, then Noto Serif, then the Noto Sans faces of Arabic,
 * Hebrew, Indic, Thai, Chinese, Japanese and Korean.
 */
export const FONT_FAMILIES = [
  "Inter",
  "Montserrat",
  "Lato",
  "Source Sans 3",
  "Noto Serif",
  "Playfair Display",
  "EB Garamond",
  "Lora",
  "Great Vibes",
  "Pinyon Script",
  "Dancing Script",
  "JetBrains Mono",
  "Cinzel",
  "Abril Fatface",
  "Oswald",
] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];
export const FONT_WEIGHTS = [400, 700] as const;

export const FONT_KINDS = ["sans", "serif", "script", "monospace", "display"] as const;
export type FontKind = (typeof FONT_KINDS)[number];

/**
 * Each family's kind and the weights it has. A family drawn in one weight only (the script and
 * display faces that are bold by design) draws weight 700 in its one weight, 400: the nearest it has.
 */
export const FONT_CATALOG: Record<FontFamily, { kind: FontKind; weights: readonly (400 | 700)[] }> = {
  Inter: { kind: "sans", weights: [400, 700] },
  Montserrat: { kind: "sans", weights: [400, 700] },
  Lato: { kind: "sans", weights: [400, 700] },
  "Source Sans 3": { kind: "sans", weights: [400, 700] },
  "Noto Serif": { kind: "serif", weights: [400, 700] },
  "Playfair Display": { kind: "serif", weights: [400, 700] },
  "EB Garamond": { kind: "serif", weights: [400, 700] },
  Lora: { kind: "serif", weights: [400, 700] },
  "Great Vibes": { kind: "script", weights: [400] },
  "Pinyon Script": { kind: "script", weights: [400] },
  "Dancing Script": { kind: "script", weights: [400, 700] },
  "JetBrains Mono": { kind: "monospace", weights: [400, 700] },
  Cinzel: { kind: "display", weights: [400, 700] },
  "Abril Fatface": { kind: "display", weights: [400] },
  Oswald: { kind: "display", weights: [400, 700] },
};

/** The weight a family draws for the weight a text asks for: the asked one when it has it, else the nearest it has. */
export function drawnWeight(family: FontFamily, weight: 400 | 700): 400 | 700 {
  const weights = FONT_CATALOG[family].weights;
  return weights.includes(weight) ? weight : weights.reduce((a, b) => (Math.abs(b - weight) < Math.abs(a - weight) ? b : a));
}

export function familiesOfKind(kind: FontKind): FontFamily[] {
  return FONT_FAMILIES.filter((f) => FONT_CATALOG[f].kind === kind);
}

const SINGLE_WEIGHT_FAMILIES = FONT_FAMILIES.filter((f) => FONT_CATALOG[f].weights.length === 1);

/** Attributes a design can show with `[name]` placeholders, besides `[custom.<tag>]`. */
export const BUILTIN_ATTRIBUTES = [
  "recipient.name",
  "group.name",
  "organization.name",
  "credential.issueDate",
  "credential.expiryDate",
  "credential.id",
  "credential.publicId",
  "credential.url",
] as const;
export type BuiltinAttribute = (typeof BUILTIN_ATTRIBUTES)[number];

export const CUSTOM_ATTRIBUTE_KEY = /^custom\.[A-Za-z0-9_-]{1,64}$/;
/** A placeholder is a bracketed dotted name; other bracketed text (`[1]`) is literal. */
export const PLACEHOLDER = /\[([a-z]+(?:\.[A-Za-z0-9_-]+)+)\]/g;
const RESERVED_NAMESPACES = new Set(["recipient", "group", "organization", "credential", "custom"]);

export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

const color = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "must be a hex colour: #rgb, #rrggbb or #rrggbbaa");
const coordinate = z.number().finite().min(0).max(2000);
const length = z.number().finite().positive().max(2000);
export const assetName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be 1-64 lowercase letters, digits, '_' or '-'");

const box = { id: singleLineText().min(1).max(64).optional(), x: coordinate, y: coordinate, width: length, height: length };

const textTemplate = multiLineText()
  .max(2000)
  .superRefine((text, ctx) => {
    for (const name of placeholdersIn(text)) {
      const namespace = name.split(".")[0]!;
      if (!RESERVED_NAMESPACES.has(namespace)) continue;
      const known = (BUILTIN_ATTRIBUTES as readonly string[]).includes(name) || CUSTOM_ATTRIBUTE_KEY.test(name);
      if (!known) ctx.addIssue({ code: "custom", message: `unknown attribute [${name}]` });
    }
  });

export const TextElement = z.strictObject({
  type: z.literal("text"),
  ...box,
  text: textTemplate,
  font: z.strictObject({
    family: z
      .enum(FONT_FAMILIES)
      .default("Inter")
      .describe(`The font family, by kind: ${FONT_KINDS.map((kind) => `${kind}: ${familiesOfKind(kind).join(", ")}`).join("; ")}.`),
    weight: z
      .union([z.literal(400), z.literal(700)])
      .default(400)
      .describe(
        `400 (regular) or 700 (bold). ${SINGLE_WEIGHT_FAMILIES.join(", ")} have one weight only: 700 draws in it (400), the nearest weight they have.`,
      ),
    size: z.number().min(4).max(300).default(16),
    color: color.default("#111111"),
    letterSpacing: z.number().min(-10).max(50).default(0),
    lineHeight: z.number().min(0.8).max(3).default(1.2),
  }),
  align: z.enum(["left", "center", "right"]).default("left"),
  verticalAlign: z.enum(["top", "middle", "bottom"]).default("top"),
  uppercase: z.boolean().default(false),
  /** Shrink the font (down to minSize) until the text fits its box on `maxLines` lines. */
  shrinkToFit: z.boolean().default(true),
  minSize: z.number().min(4).max(300).default(8),
  maxLines: z.number().int().min(1).max(20).default(1),
});

export const ImageElement = z.strictObject({
  type: z.literal("image"),
  ...box,
  asset: assetName,
  fit: z.enum(["contain", "cover"]).default("contain"),
  opacity: z.number().min(0).max(1).default(1),
});

export const RectElement = z.strictObject({
  type: z.literal("rect"),
  ...box,
  fill: color.nullable().default(null),
  stroke: color.nullable().default(null),
  strokeWidth: z.number().min(0).max(100).default(0),
  radius: z.number().min(0).max(1000).default(0),
});

export const LineElement = z.strictObject({
  type: z.literal("line"),
  id: singleLineText().min(1).max(64).optional(),
  x1: coordinate,
  y1: coordinate,
  x2: coordinate,
  y2: coordinate,
  color: color.default("#111111"),
  thickness: z.number().positive().max(50).default(1),
});

/** A frame around the whole canvas, `inset` points from its edge. */
export const BorderElement = z.strictObject({
  type: z.literal("border"),
  id: singleLineText().min(1).max(64).optional(),
  inset: z.number().min(0).max(200).default(16),
  thickness: z.number().positive().max(100).default(4),
  color: color.default("#111111"),
  style: z.enum(["solid", "double"]).default("solid"),
  radius: z.number().min(0).max(200).default(0),
});

/** A QR code of the credential's wallet URL. */
export const QrElement = z.strictObject({
  type: z.literal("qr"),
  id: singleLineText().min(1).max(64).optional(),
  x: coordinate,
  y: coordinate,
  size: z.number().min(24).max(1000),
  color: color.default("#111111"),
  background: color.default("#ffffff"),
});

/**
 * The design's own words, all text elements together (attribute values come on top). A certificate
 * has a few hundred; the bound keeps a rendering's layout work small (see RENDER_TEXT_BUDGET).
 */
export const MAX_DOCUMENT_TEXT_CHARACTERS = 10_000;

export const DesignElement = z.discriminatedUnion("type", [TextElement, ImageElement, RectElement, LineElement, BorderElement, QrElement]);
export type DesignElement = z.infer<typeof DesignElement>;

export const Canvas = z.strictObject({
  size: z.enum(["A4", "Letter", "square"]),
  orientation: z.enum(["landscape", "portrait"]).default("landscape"),
});

export const DesignDocument = z
  .strictObject({
    version: z.literal(DESIGN_DOCUMENT_VERSION),
    canvas: Canvas,
    /** BCP 47 locale for dates, e.g. `en-US`, `de-DE`, `ja-JP`. */
    locale: z
      .string()
      .default("en-US")
      .refine((l) => {
        try {
          return Intl.DateTimeFormat.supportedLocalesOf([l]).length > 0;
        } catch {
          return false;
        }
      }, "must be a supported BCP 47 locale such as en-US"),
    dateStyle: z.enum(["long", "medium", "short", "iso"]).default("long"),
    background: z
      .strictObject({
        color: color.default("#ffffff"),
        image: z
          .strictObject({
            asset: assetName,
            fit: z.enum(["cover", "contain"]).default("cover"),
            opacity: z.number().min(0).max(1).default(1),
          })
          .nullable()
          .default(null),
      })
      .default({ color: "#ffffff", image: null }),
    elements: z.array(DesignElement).max(200).default([]),
  })
  .superRefine((doc, ctx) => {
    const textCharacters = doc.elements.reduce((sum, el) => sum + (el.type === "text" ? el.text.length : 0), 0);
    if (textCharacters > MAX_DOCUMENT_TEXT_CHARACTERS) {
      ctx.addIssue({
        code: "custom",
        path: ["elements"],
        message: `the texts add up to ${textCharacters} characters; at most ${MAX_DOCUMENT_TEXT_CHARACTERS}`,
      });
    }
    const { width, height } = canvasSize(doc.canvas);
    doc.elements.forEach((el, i) => {
      const [right, bottom] =
        el.type === "line"
          ? [Math.max(el.x1, el.x2), Math.max(el.y1, el.y2)]
          : el.type === "border"
            ? [0, 0]
            : el.type === "qr"
              ? [el.x + el.size, el.y + el.size]
              : [el.x + el.width, el.y + el.height];
      if (right > width + 0.5 || bottom > height + 0.5) {
        ctx.addIssue({ code: "custom", path: ["elements", i], message: `element extends beyond the ${width}x${height} canvas` });
      }
    });
  });
export type DesignDocument = z.infer<typeof DesignDocument>;
export type DesignDocumentInput = z.input<typeof DesignDocument>;

export function canvasSize(canvas: { size: "A4" | "Letter" | "square"; orientation: "landscape" | "portrait" }): {
  width: number;
  height: number;
} {
  if (canvas.size === "square") return { width: BADGE_SIZE, height: BADGE_SIZE };
  const paper = PAPER_SIZES[canvas.size];
  return canvas.orientation === "landscape" ? { width: paper.height, height: paper.width } : { ...paper };
}

/** The images a document draws (background and image elements): the only ones a rendering loads. */
export function assetsUsed(doc: DesignDocument): Set<string> {
  const names = new Set<string>();
  if (doc.background.image) names.add(doc.background.image.asset);
  for (const el of doc.elements) if (el.type === "image") names.add(el.asset);
  return names;
}

/** The attributes a document renders: only these feed a preview's digest. */
export function attributesUsed(doc: DesignDocument): string[] {
  const used = new Set<string>();
  for (const el of doc.elements) {
    if (el.type === "text") for (const name of placeholdersIn(el.text)) used.add(name);
    if (el.type === "qr") used.add("credential.url");
  }
  return [...used].sort();
}
