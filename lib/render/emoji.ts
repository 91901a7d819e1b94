// Colour emoji: Twemoji's SVGs (@twemoji/svg, graphics CC-BY 4.0 by Twitter and contributors), one
// file per emoji, read the first time a text has that emoji and kept for the life of the process.
// An emoji is one grapheme (a ZWJ sequence, a flag, a skin tone are one each) drawn as a picture one
// em square; the SVG painter inlines it, the PDF painter embeds it rasterised (pdf-painter.ts).
import { readFile } from "node:fs/promises";
import path from "node:path";

export interface EmojiImage {
  /** Twemoji's file name without .svg, e.g. "1f393" or "1f469-200d-1f393". */
  key: string;
  /** The SVG file (viewBox 0 0 36 36). */
  svg: string;
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

// A grapheme is drawn as colour emoji when it asks for emoji presentation: by default (🎓), with
// VS16 (❤️), as a keycap, a flag, a ZWJ sequence or with a skin tone. A pictograph without VS16
// that fonts have in text style (©, ™, ↔) stays text.
const EMOJI_PRESENTATION =
  /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\uFE0F\u20E3|\p{Regional_Indicator}|\u200D|\p{Emoji_Modifier}/u;

/** Whether a grapheme asks to be drawn as a colour emoji. */
export function isEmojiGrapheme(g: string): boolean {
  return EMOJI_PRESENTATION.test(g);
}

/** The graphemes of a text to draw as colour emoji, and the text without them (for the fonts to cover). */
export function emojiCandidates(text: string): { graphemes: string[]; rest: string } {
  // Quick exit for the common case: no character that could start an emoji.
  if (!/[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/u.test(text)) return { graphemes: [], rest: text };
  const graphemes: string[] = [];
  let rest = "";
  for (const { segment } of graphemeSegmenter.segment(text)) {
    if (isEmojiGrapheme(segment)) graphemes.push(segment);
    else rest += segment;
  }
  return { graphemes, rest };
}

/** Twemoji's file names for a grapheme, most specific first (its names drop VS16 outside ZWJ sequences). */
function fileKeys(g: string): string[] {
  const hex = [...g].map((c) => c.codePointAt(0)!.toString(16));
  const full = hex.join("-");
  const withoutVs = hex.filter((h) => h !== "fe0f").join("-");
  return full === withoutVs ? [full] : [full, withoutVs];
}

const MAX_GRAPHEME = 64;

/** The emoji images read so far; `load` reads new ones, `get` answers synchronously. */
export class EmojiSet {
  private readonly images = new Map<string, EmojiImage | null>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Bytes of SVG held, for diagnostics. */
  bytesLoaded = 0;

  constructor(private readonly root: string) {}

  private dir(): string {
    return path.join(this.root, "node_modules", "@twemoji", "svg");
  }

  /** Reads the images of these graphemes (those Twemoji has; the others stay missing). */
  async load(graphemes: Iterable<string>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const g of new Set(graphemes)) {
      if (this.images.has(g)) continue;
      let p = this.pending.get(g);
      if (!p) {
        p = this.read(g).then((image) => {
          this.images.set(g, image);
          this.pending.delete(g);
        });
        this.pending.set(g, p);
      }
      waits.push(p);
    }
    await Promise.all(waits);
  }

  private async read(g: string): Promise<EmojiImage | null> {
    if (g.length > MAX_GRAPHEME) return null;
    for (const key of fileKeys(g)) {
      // Keys are hex digits and dashes only: no path can be made of them.
      try {
        const svg = await readFile(path.join(this.dir(), `${key}.svg`), "utf8");
        this.bytesLoaded += svg.length;
        return { key, svg };
      } catch {
        // Not in Twemoji under this name: try the next.
      }
    }
    return null;
  }

  get(g: string): EmojiImage | undefined {
    return this.images.get(g) ?? undefined;
  }
}
