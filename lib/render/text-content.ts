// What each text element of a document says once attribute values are filled in, and whether the
// renderer can draw it: the text budget of one rendering, and the refusal of text it would draw wrong.
//
// Text with every placeholder empty is left out, label included: "Valid until [credential.expiryDate]"
// disappears for a credential that does not expire.
//
// Every script a bundled font has is shaped and laid out in both directions (text-shaping.ts).
// Characters no bundled font or emoji image can draw (Ethiopic, Egyptian hieroglyphs, an unpaired
// surrogate, ...) throw `UnsupportedTextError` (code `missing_glyphs`) naming them and the element,
// rather than issue a credential with empty boxes, unless `unsupportedText: "render"` is passed (for
// editor previews), which draws what it can.
//
// Combining-mark floods ("Zalgo" text) are cut to MAX_MARKS marks per character: more draws a tower
// of marks over the text above and costs glyphs without end.
import { isEmptyAttribute, substitute, type AttributeValues } from "./attributes";
import { placeholdersIn, type DesignDocument, type DesignElement } from "./document";
import { defaultFontLibrary, missingInChain, type FontLibrary } from "./fonts";

export interface RenderOptions {
  /** Fonts to render with; the process-wide `defaultFontLibrary()` when omitted. */
  fonts?: FontLibrary;
  /** `throw` (default) refuses text that cannot be drawn correctly; `render` draws it anyway (empty boxes). */
  unsupportedText?: "throw" | "render";
  /** Plans only these elements (by index), for a check that needs a few texts' layout; all when omitted. */
  only?: ReadonlySet<number>;
}

export type UnsupportedTextCode = "missing_glyphs";

/** A character for a message: itself with its code point ("ሀ U+1200"), or only the code point when it would not show (controls, unpaired surrogates). */
export function describeCharacter(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]+$/u.test(ch) ? `${ch} ${code}` : code;
}

/** Text that cannot be rendered correctly (characters no font has). */
export class UnsupportedTextError extends Error {
  readonly code: UnsupportedTextCode;
  readonly characters: string[];
  readonly elementIndex: number;
  /** Attributes used by the element, to point at the value that brought the characters in. */
  readonly attributes: string[];
  constructor(code: UnsupportedTextCode, characters: string[], elementIndex: number, attributes: string[]) {
    const from = attributes.length ? ` (from ${attributes.map((a) => `[${a}]`).join(", ")})` : "";
    const more = characters.length > 10 ? ` and ${characters.length - 10} more` : "";
    super(`no bundled font can draw these characters: ${characters.slice(0, 10).map(describeCharacter).join(", ")}${more}${from}`);
    this.name = "UnsupportedTextError";
    this.code = code;
    this.characters = characters;
    this.elementIndex = elementIndex;
    this.attributes = attributes;
  }
}

type TextElement = Extract<DesignElement, { type: "text" }>;

/**
 * Characters (after attribute values are filled in) one rendering lays out in all. Fitting text costs
 * about 0.1 ms per character on the main thread, and attribute values are up to 10,000 characters
 * each, so without a bound one preview could hold the server for seconds. Real certificates draw a
 * few hundred; texts past the budget are cut with "…" and reported.
 */
export const RENDER_TEXT_BUDGET = 20_000;

/** Combining marks kept on one character (Unicode's stream-safe format allows 30; real text uses up to 4 or 5). */
export const MAX_MARKS = 8;

/** The text with runs of combining marks longer than MAX_MARKS cut, and whether any were. */
function capMarks(text: string): { text: string; cut: boolean } {
  let cut = false;
  const capped = text.replace(/\p{M}{9,}/gu, (marks) => {
    cut = true;
    return [...marks].slice(0, MAX_MARKS).join("");
  });
  return { text: capped, cut };
}

/** Each text element's text after substitution (empty when left out), by element index, in a rendering's text budget. */
export function substitutedTexts(doc: DesignDocument, values: AttributeValues): { texts: Map<number, string>; warnings: string[] } {
  const subst = { locale: doc.locale, dateStyle: doc.dateStyle };
  const warnings: string[] = [];
  const texts = new Map<number, string>();
  let budget = RENDER_TEXT_BUDGET;
  doc.elements.forEach((el, i) => {
    if (el.type !== "text") return;
    // A text whose every placeholder is empty is left out, label and all ("Valid until [expiry]").
    const names = placeholdersIn(el.text);
    if (names.length > 0 && names.every((name) => isEmptyAttribute(values, name))) {
      texts.set(i, "");
      return;
    }
    const marks = capMarks(substitute(el.text, values, subst).normalize("NFC"));
    let text = marks.text;
    if (marks.cut) warnings.push(`element ${i}: more than ${MAX_MARKS} combining marks on one character were left out`);
    if (el.uppercase) text = text.toLocaleUpperCase(doc.locale);
    const characters = [...text];
    if (characters.length > budget) {
      text = `${characters.slice(0, budget).join("")}…`;
      warnings.push(`element ${i}: text cut short: a design draws at most ${RENDER_TEXT_BUDGET} characters in all`);
    }
    budget = Math.max(0, budget - characters.length);
    texts.set(i, text);
  });
  return { texts, warnings };
}

/**
 * Loads the fonts the texts need and returns the first text the renderer cannot draw, in element
 * order: characters no font has (not looked for with `unsupportedText: "render"`).
 */
export async function firstUnsupportedText(
  doc: DesignDocument,
  texts: Map<number, string>,
  fonts: FontLibrary,
  options: RenderOptions,
): Promise<UnsupportedTextError | null> {
  await fonts.prepare(
    [...texts].map(([i, text]) => {
      const el = doc.elements[i] as TextElement;
      return { text, family: el.font.family, weight: el.font.weight, locale: doc.locale };
    }),
  );
  if (options.unsupportedText === "render") return null;
  for (const [i, text] of texts) {
    const el = doc.elements[i] as TextElement;
    const missing = missingInChain(fonts.chain({ text, family: el.font.family, weight: el.font.weight, locale: doc.locale }), text);
    if (missing.length) return new UnsupportedTextError("missing_glyphs", missing, i, placeholdersIn(el.text));
  }
  return null;
}

/**
 * Why this document with these values cannot be rendered (what `layoutDocument` would throw), or
 * null when it can. Cheap: no text is measured. The wallet uses it to show a stand-in, not a broken image.
 */
export async function unsupportedTextIn(
  doc: DesignDocument,
  values: AttributeValues,
  options: RenderOptions = {},
): Promise<UnsupportedTextError | null> {
  return firstUnsupportedText(doc, substitutedTexts(doc, values).texts, options.fonts ?? defaultFontLibrary(), options);
}
