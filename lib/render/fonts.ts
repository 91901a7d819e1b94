// The curated fonts, read once per process from the @fontsource packages' WOFF files (HarfBuzz
// shapes them once unwrapped, shaper.ts), plus lazily loaded script, CJK and emoji fallbacks.
//
// Size decisions:
// - The 15 families of the designer (document.ts FONT_CATALOG) are read lazily, one family and
//   weight at a time, the first time a text asks for it (`prepare`), with every script subset
//   fontsource ships for it (latin, latin-ext, vietnamese, cyrillic(-ext), greek(-ext) where it has
//   them: 2-7 files, 30-230 KB of WOFF), then kept for the life of the process; concurrent first
//   uses share one read. Inter and Noto Serif, the fallbacks of every family, load with the first
//   text of any family. Only their cmap and advance widths are read up front (for measuring and
//   coverage); HarfBuzz parses a face the first time a text uses it.
// - Chinese, Japanese and Korean come from Noto Sans SC / JP / KR, which fontsource splits into
//   ~100-120 numbered unicode-range subsets of 20-60 KB each per weight (4.7 MB, 5.1 MB and 3.4 MB
//   per weight in total). Only the subsets holding the characters actually being rendered are read,
//   chosen through each package's unicode.json (the preferred script's font first, another only
//   for characters it lacks), then kept for the life of the process. A typical CJK name needs 1-3
//   slices (~50-150 KB); the worst case, every slice of all three fonts in both weights, is ~26 MB.
//
// - Arabic, Hebrew, Devanagari, Bengali, Tamil and Thai come from the Noto Sans faces of those
//   scripts (9-80 KB of WOFF each per weight), read the first time a text needs one, then kept.
// - Emoji are Twemoji's SVGs (@twemoji/svg, CC-BY 4.0), read one file per emoji on first need
//   (emoji.ts).
//
// Files are resolved from `process.cwd()` (the project root; Next bundles code, so `__dirname` is
// meaningless), or from the `root` given to `new FontLibrary({ root })`.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { drawnWeight, type FontFamily } from "./document";
import { readFontMetrics } from "./woff";
import { EmojiSet, emojiCandidates, type EmojiImage } from "./emoji";
import { loadShaper } from "./shaper";
import { processSingleton } from "../core/process-singleton";

import type { FontWeight, LoadedFont } from "./font-face";
export type { FontWeight, LoadedFont } from "./font-face";
export type CjkScript = "sc" | "jp" | "kr";

const ALL_SUBSETS = ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek", "greek-ext"];

/**
 * Where each family's files are: its fontsource package and the script subsets it ships (the
 * weights are the catalog's, document.ts). Only the subsets of the scripts a name may be in: Lora's
 * "math" and "symbols" subsets are left out.
 */
const FAMILY_FILES: Record<FontFamily, { pkg: string; subsets: string[] }> = {
  Inter: { pkg: "inter", subsets: ALL_SUBSETS },
  Montserrat: { pkg: "montserrat", subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext"] },
  Lato: { pkg: "lato", subsets: ["latin", "latin-ext"] },
  "Source Sans 3": { pkg: "source-sans-3", subsets: ALL_SUBSETS },
  "Noto Serif": { pkg: "noto-serif", subsets: ALL_SUBSETS },
  "Playfair Display": { pkg: "playfair-display", subsets: ["latin", "latin-ext", "vietnamese", "cyrillic"] },
  "EB Garamond": { pkg: "eb-garamond", subsets: ALL_SUBSETS },
  Lora: { pkg: "lora", subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext"] },
  "Great Vibes": { pkg: "great-vibes", subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek-ext"] },
  "Pinyon Script": { pkg: "pinyon-script", subsets: ["latin", "latin-ext", "vietnamese"] },
  "Dancing Script": { pkg: "dancing-script", subsets: ["latin", "latin-ext", "vietnamese"] },
  "JetBrains Mono": { pkg: "jetbrains-mono", subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek"] },
  Cinzel: { pkg: "cinzel", subsets: ["latin", "latin-ext"] },
  "Abril Fatface": { pkg: "abril-fatface", subsets: ["latin", "latin-ext"] },
  Oswald: { pkg: "oswald", subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext"] },
};

const CJK_PACKAGES: Record<CjkScript, { pkg: string; family: string }> = {
  sc: { pkg: "noto-sans-sc", family: "Noto Sans SC" },
  jp: { pkg: "noto-sans-jp", family: "Noto Sans JP" },
  kr: { pkg: "noto-sans-kr", family: "Noto Sans KR" },
};

/**
 * Script faces, tried after the Latin fallbacks and before CJK, each read on first need. `subset` is
 * the fontsource subset holding the script (its Latin subsets are not used: the base fonts draw Latin).
 */
const SCRIPT_PACKAGES: { pkg: string; subset: string; family: string }[] = [
  { pkg: "noto-sans-arabic", subset: "arabic", family: "Noto Sans Arabic" },
  { pkg: "noto-sans-hebrew", subset: "hebrew", family: "Noto Sans Hebrew" },
  { pkg: "noto-sans-devanagari", subset: "devanagari", family: "Noto Sans Devanagari" },
  { pkg: "noto-sans-bengali", subset: "bengali", family: "Noto Sans Bengali" },
  { pkg: "noto-sans-tamil", subset: "tamil", family: "Noto Sans Tamil" },
  { pkg: "noto-sans-thai", subset: "thai", family: "Noto Sans Thai" },
];

let faceIds = 0;

/** Families tried, in order, after a text's own family (Great Vibes lacks basic Greek, for one). */
const LATIN_FALLBACKS: FontFamily[] = ["Inter", "Noto Serif"];

/** Characters the text layout may add to a text: the ellipsis of cut text, Great Vibes' widened word space. */
const CHAIN_EXTRA_CHARACTERS = "\u2026\u2009 ";

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/;
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/;

/**
 * Which CJK font to prefer for a text: Korean when it has Hangul, Japanese when it has kana, else
 * from the document's locale (ja → Japanese, ko → Korean), else Simplified Chinese. Han characters
 * shared by the three are drawn in the preferred font's regional style.
 */
export function cjkOrder(text: string, locale = "en-US"): CjkScript[] {
  const lang = locale.toLowerCase().split("-")[0];
  const first: CjkScript = HANGUL.test(text) ? "kr" : KANA.test(text) ? "jp" : lang === "ja" ? "jp" : lang === "ko" ? "kr" : "sc";
  return [first, ...(["sc", "jp", "kr"] as const).filter((s) => s !== first)];
}

type RangeTable = { starts: Uint32Array; ends: Uint32Array; keys: string[] };

/** A fontsource unicode.json as a range table, keeping the subsets `keep` accepts. */
function parseUnicodeJson(json: Record<string, string>, keep: (key: string) => boolean): RangeTable {
  const ranges: [number, number, string][] = [];
  for (const [rawKey, spec] of Object.entries(json)) {
    const key = rawKey.replace(/^\[|\]$/g, "");
    if (!keep(key)) continue;
    for (const part of spec.split(",")) {
      const m = /^U\+([0-9a-f]+)(?:-([0-9a-f]+))?$/i.exec(part.trim());
      if (!m) continue;
      const start = parseInt(m[1]!, 16);
      ranges.push([start, m[2] ? parseInt(m[2], 16) : start, key]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return {
    starts: Uint32Array.from(ranges.map((r) => r[0])),
    ends: Uint32Array.from(ranges.map((r) => r[1])),
    keys: ranges.map((r) => r[2]),
  };
}

function lookupRange(table: RangeTable, cp: number): string | null {
  let lo = 0;
  let hi = table.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (table.starts[mid]! > cp) hi = mid - 1;
    else if (table.ends[mid]! < cp) lo = mid + 1;
    else return table.keys[mid]!;
  }
  return null;
}

/** Characters that never need a glyph (whitespace, controls, joiners, variation selectors). */
export function needsGlyph(cp: number): boolean {
  if (cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0)) return false;
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x2060 || cp === 0xfeff) return false;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return false;
  if (cp === 0x2028 || cp === 0x2029 || cp === 0x3000 || (cp >= 0x2000 && cp <= 0x200a)) return false;
  // Bidi controls (marks, embeddings, overrides, isolates): they steer the layout and draw nothing.
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return false;
  return true;
}

/** An ordered list of font faces used for one text: shaping and coverage. */
export interface FontChain {
  /** Face names, primary first. */
  names: string[];
  /** The face used for each name at the requested weight, same order as `names`. */
  faces: LoadedFont[];
  /** The colour emoji the text has, by grapheme (drawn as images, not from the faces). */
  emoji: ReadonlyMap<string, EmojiImage>;
}

/** The face that draws a code point in a chain (the first face with a glyph), or null. */
export function faceFor(chain: FontChain, cp: number): LoadedFont | null {
  for (const face of chain.faces) if (face.metrics.glyphIndex(cp) !== 0) return face;
  return null;
}

/** Characters of `text` no font in the chain has a glyph for, and no emoji image draws (what would render as tofu). */
export function missingInChain(chain: FontChain, text: string): string[] {
  const missing = new Set<string>();
  const graphemes = chain.emoji.size ? [...graphemeSegmenter.segment(text)].map((s) => s.segment) : [text];
  for (const g of graphemes) {
    if (chain.emoji.has(g)) continue;
    for (const ch of g) {
      const cp = ch.codePointAt(0)!;
      if (needsGlyph(cp) && !faceFor(chain, cp)) missing.add(ch);
    }
  }
  return [...missing];
}

export interface FontLibraryOptions {
  /** Project root holding node_modules/@fontsource; defaults to process.cwd(). */
  root?: string;
}

export interface TextFontRequest {
  text: string;
  family: FontFamily;
  weight: FontWeight;
  /** The document's locale, used to choose between Chinese, Japanese and Korean glyph styles. */
  locale?: string;
}

let libraries = 0;

function loadedFont(name: string, weight: FontWeight, data: Buffer): LoadedFont {
  return { id: ++faceIds, name, weight, style: "normal", data, metrics: readFontMetrics(data) };
}

/**
 * Owns every font buffer of the process. Nothing is read on construction: a family's faces, script
 * faces, CJK subsets and emoji images load on demand through `prepare`, the only asynchronous,
 * I/O-doing step (it also loads HarfBuzz). After `prepare`, `chain` is synchronous and pure.
 */
export class FontLibrary {
  readonly root: string;
  /** Distinguishes libraries in caches keyed by font names. */
  readonly id = ++libraries;
  /** `family|weight` (the weight drawn, see drawnWeight) -> its faces, one per subset, latin first. */
  private readonly families = new Map<string, LoadedFont[]>();
  private readonly familiesPending = new Map<string, Promise<LoadedFont[]>>();
  private readonly lazy = new Map<string, LoadedFont>(); // file -> face (script faces and CJK slices)
  private readonly lazyPending = new Map<string, Promise<LoadedFont | null>>();
  private readonly cjkTables = new Map<CjkScript, RangeTable>();
  private scriptTable: RangeTable | null = null;
  readonly emoji: EmojiSet;
  /** Bytes of WOFF data held, for diagnostics. */
  bytesLoaded = 0;

  constructor(options: FontLibraryOptions = {}) {
    this.root = options.root ?? process.cwd();
    this.emoji = new EmojiSet(this.root);
  }

  /** The families whose faces are loaded, as `family weight` (for tests and diagnostics). */
  loadedFamilies(): string[] {
    return [...this.families.keys()].map((key) => key.replace("|", " "));
  }

  /**
   * A family's faces at a weight, read on first use (every subset file at once) and kept; concurrent
   * first uses share one read. A file that cannot be read rejects the load (and the next use retries).
   */
  loadFamily(family: FontFamily, weight: FontWeight): Promise<LoadedFont[]> {
    const drawn = drawnWeight(family, weight);
    const key = `${family}|${drawn}`;
    const done = this.families.get(key);
    if (done) return Promise.resolve(done);
    let pending = this.familiesPending.get(key);
    if (!pending) {
      const { pkg, subsets } = FAMILY_FILES[family];
      pending = Promise.all(subsets.map((subset) => readFile(path.join(this.fontDir(pkg), `${pkg}-${subset}-${drawn}-normal.woff`)))).then(
        (files) => {
          const faces = files.map((data, i) => {
            this.bytesLoaded += data.byteLength;
            return loadedFont(subsets[i] === "latin" ? family : `${family} ${subsets[i]}`, drawn, data);
          });
          this.families.set(key, faces);
          return faces;
        },
      );
      this.familiesPending.set(key, pending);
      void pending.finally(() => this.familiesPending.delete(key)).catch(() => {});
    }
    return pending;
  }

  private familyFaces(family: FontFamily, weight: FontWeight): LoadedFont[] {
    const faces = this.families.get(`${family}|${drawnWeight(family, weight)}`);
    if (!faces) throw new Error(`font family ${family} ${weight} is not loaded: call prepare() first`);
    return faces;
  }

  private fontDir(pkg: string): string {
    return path.join(this.root, "node_modules", "@fontsource", pkg, "files");
  }

  private readUnicodeJson(pkg: string): Record<string, string> {
    return JSON.parse(readFileSync(path.join(this.root, "node_modules", "@fontsource", pkg, "unicode.json"), "utf8")) as Record<
      string,
      string
    >;
  }

  private table(script: CjkScript): RangeTable {
    let table = this.cjkTables.get(script);
    if (!table) {
      // Only the numbered CJK slices: the latin/cyrillic/vietnamese ones are covered by the base fonts.
      table = parseUnicodeJson(this.readUnicodeJson(CJK_PACKAGES[script].pkg), (key) => /^\d+$/.test(key));
      this.cjkTables.set(script, table);
    }
    return table;
  }

  /** Which script package covers a code point (its subset's unicode-range), keyed by package name. */
  private scripts(): RangeTable {
    if (!this.scriptTable) {
      const merged: Record<string, string> = {};
      for (const { pkg, subset } of SCRIPT_PACKAGES) merged[pkg] = this.readUnicodeJson(pkg)[subset] ?? "";
      this.scriptTable = parseUnicodeJson(merged, () => true);
    }
    return this.scriptTable;
  }

  private loadFile(pkg: string, file: string, name: string, weight: FontWeight): Promise<LoadedFont | null> {
    const done = this.lazy.get(file);
    if (done) return Promise.resolve(done);
    let pending = this.lazyPending.get(file);
    if (!pending) {
      pending = readFile(path.join(this.fontDir(pkg), file)).then(
        (data) => {
          this.bytesLoaded += data.byteLength;
          const face = loadedFont(name, weight, data);
          this.lazy.set(file, face);
          return face;
        },
        () => null,
      );
      this.lazyPending.set(file, pending);
      void pending.finally(() => this.lazyPending.delete(file));
    }
    return pending;
  }

  private cjkFile(script: CjkScript, subset: string, weight: FontWeight) {
    const { pkg, family } = CJK_PACKAGES[script];
    return { pkg, file: `${pkg}-${subset}-${weight}-normal.woff`, name: `${family} ${subset}` };
  }

  private scriptFile(pkg: string, weight: FontWeight) {
    const spec = SCRIPT_PACKAGES.find((s) => s.pkg === pkg)!;
    return { pkg, file: `${pkg}-${spec.subset}-${weight}-normal.woff`, name: spec.family };
  }

  private baseChain(family: FontFamily, weight: FontWeight): FontChain {
    const faces = [family, ...LATIN_FALLBACKS.filter((f) => f !== family)].flatMap((fam) => this.familyFaces(fam, weight));
    return { names: faces.map((f) => f.name), faces, emoji: new Map() };
  }

  /**
   * Load what drawing these texts needs: HarfBuzz, their families (and the Latin fallbacks), the script faces, the CJK subsets and the emoji
   * images (nothing for texts the base fonts cover). Call before `chain`. Concurrent calls share
   * file reads.
   */
  async prepare(requests: TextFontRequest[]): Promise<void> {
    const families = new Set(requests.flatMap((req) => [req.family, ...LATIN_FALLBACKS].map((family) => `${family}|${req.weight}`)));
    await Promise.all([
      loadShaper(),
      ...[...families].map((key) => {
        const [family, weight] = key.split("|") as [FontFamily, string];
        return this.loadFamily(family, Number(weight) as FontWeight);
      }),
    ]);
    // Per text, try the preferred CJK font first and only read another font's subsets for the
    // characters the preferred one lacks (a Chinese name reads only Noto Sans SC slices).
    await Promise.all(
      requests.map(async (req) => {
        const base = this.baseChain(req.family, req.weight);
        const emoji = emojiCandidates(req.text);
        let pending = [...new Set(emoji.graphemes.length ? emoji.rest : req.text)]
          .map((ch) => ch.codePointAt(0)!)
          .filter((cp) => needsGlyph(cp) && !faceFor(base, cp));
        if (emoji.graphemes.length) await this.emoji.load(emoji.graphemes);
        if (pending.length === 0) return;
        const scripts = new Set<string>();
        for (const cp of pending) {
          const pkg = lookupRange(this.scripts(), cp);
          if (pkg) scripts.add(pkg);
        }
        const scriptFaces = await Promise.all(
          [...scripts].map((pkg) => {
            const f = this.scriptFile(pkg, req.weight);
            return this.loadFile(f.pkg, f.file, f.name, req.weight);
          }),
        );
        pending = pending.filter((cp) => !scriptFaces.some((f) => f && f.metrics.glyphIndex(cp) !== 0));
        for (const script of cjkOrder(req.text, req.locale)) {
          if (pending.length === 0) break;
          const table = this.table(script);
          const bySubset = new Map<string, number[]>();
          for (const cp of pending) {
            const subset = lookupRange(table, cp);
            if (subset) bySubset.set(subset, [...(bySubset.get(subset) ?? []), cp]);
          }
          const faces = await Promise.all(
            [...bySubset.keys()].map((s) => {
              const f = this.cjkFile(script, s, req.weight);
              return this.loadFile(f.pkg, f.file, f.name, req.weight);
            }),
          );
          pending = pending.filter((cp) => !faces.some((f) => f && f.metrics.glyphIndex(cp) !== 0));
        }
      }),
    );
  }

  /**
   * The font chain for a text, after `prepare`: the family's subsets, Latin fallbacks, the script
   * faces, then CJK faces; and the text's colour emoji.
   */
  chain(req: TextFontRequest): FontChain {
    const chain = this.baseChain(req.family, req.weight);
    const emoji = new Map<string, EmojiImage>();
    const candidates = emojiCandidates(req.text);
    for (const g of candidates.graphemes) {
      const image = this.emoji.get(g);
      if (image) emoji.set(g, image);
    }
    const extra = new Map<string, LoadedFont>();
    const cjkScripts = cjkOrder(req.text, req.locale);
    for (const ch of new Set(candidates.graphemes.length ? candidates.rest : req.text)) {
      const cp = ch.codePointAt(0)!;
      if (!needsGlyph(cp) || faceFor(chain, cp)) continue;
      const pkg = this.scriptTable ? lookupRange(this.scriptTable, cp) : null;
      const scriptFace = pkg ? this.lazy.get(this.scriptFile(pkg, req.weight).file) : undefined;
      if (scriptFace && scriptFace.metrics.glyphIndex(cp) !== 0) {
        extra.set(scriptFace.name, scriptFace);
        continue;
      }
      for (const script of cjkScripts) {
        const subset = this.cjkTables.has(script) ? lookupRange(this.table(script), cp) : null;
        const face = subset ? this.lazy.get(this.cjkFile(script, subset, req.weight).file) : undefined;
        if (face && face.metrics.glyphIndex(cp) !== 0) {
          extra.set(face.name, face);
          break;
        }
      }
    }
    // Script faces before CJK ones, whatever order the characters came in.
    const isScript = (f: LoadedFont) => SCRIPT_PACKAGES.some((s) => s.family === f.name);
    for (const face of [...[...extra.values()].filter(isScript), ...[...extra.values()].filter((f) => !isScript(f))]) {
      chain.names.push(face.name);
      chain.faces.push(face);
    }
    // Keep only the faces that draw some character of the text (plus the primary face, and those
    // for the ellipsis and thin space the layout may add). Order is kept, so every character still
    // resolves to the same face, but the chain has 1-4 faces instead of ~20.
    const used = new Set<LoadedFont>([chain.faces[0]!]);
    for (const ch of new Set(req.text + CHAIN_EXTRA_CHARACTERS)) {
      const face = faceFor(chain, ch.codePointAt(0)!);
      if (face) used.add(face);
    }
    const faces = chain.faces.filter((f) => used.has(f));
    return { names: faces.map((f) => f.name), faces, emoji };
  }

  /**
   * Characters of `text` that no loaded font can draw in `family` (after loading the faces it
   * would need). An empty array means the text renders without tofu.
   */
  async missingCharacters(text: string, family: FontFamily = "Inter", weight: FontWeight = 400, locale?: string): Promise<string[]> {
    const req = { text: text.normalize("NFC"), family, weight, locale };
    await this.prepare([req]);
    return missingInChain(this.chain(req), req.text);
  }

  /** True when every character of `text` is covered by the fonts (see `missingCharacters`). */
  async covers(text: string, family: FontFamily = "Inter", weight: FontWeight = 400, locale?: string): Promise<boolean> {
    return (await this.missingCharacters(text, family, weight, locale)).length === 0;
  }
}

/** The process-wide font library (one across route bundles and Next's module reloads: fonts load once). */
export function defaultFontLibrary(): FontLibrary {
  return processSingleton("render.fontLibrary", () => new FontLibrary());
}
