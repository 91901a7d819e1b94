// The curated fonts, read once per process from the @fontsource packages' WOFF files (satori reads
// WOFF, not WOFF2), plus a lazily loaded CJK fallback.
//
// Size decisions:
// - Inter 400/700, Noto Serif 400/700 and Great Vibes 400 are loaded eagerly with every script
//   subset fontsource ships for them (latin, latin-ext, vietnamese, cyrillic(-ext), greek(-ext)):
//   40 faces, ~730 KB of WOFF. Only their cmap and advance widths are read up front (for measuring
//   and coverage); satori parses a face's outlines the first time a text uses it.
// - Chinese, Japanese and Korean come from Noto Sans SC / JP / KR, which fontsource splits into
//   ~100-120 numbered unicode-range subsets of 20-60 KB each per weight (4.7 MB, 5.1 MB and 3.4 MB
//   per weight in total). Only the subsets holding the characters actually being rendered are read,
//   chosen through each package's unicode.json (the preferred script's font first, another only
//   for characters it lacks), then kept for the life of the process. A typical CJK name needs 1-3
//   slices (~50-150 KB); the worst case, every slice of all three fonts in both weights, is ~26 MB.
//
// Files are resolved from `process.cwd()` (the project root; Next bundles code, so `__dirname` is
// meaningless), or from the `root` given to `new FontLibrary({ root })`.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FontFamily } from "./document";
import { readFontMetrics, type FontMetrics } from "./woff";
import { processSingleton } from "../core/process-singleton";

export type FontWeight = 400 | 700;
export type CjkScript = "sc" | "jp" | "kr";

/** One font face as satori wants it, plus its metrics for measuring and coverage checks. */
export interface LoadedFont {
  /** Unique satori family name of this subset, e.g. "Inter latin-ext" or "Noto Sans JP 57". */
  name: string;
  weight: FontWeight;
  style: "normal";
  data: Buffer;
  metrics: FontMetrics;
}

/** What satori's `fonts` option needs. */
export type SatoriFont = { name: string; data: Buffer; weight: FontWeight; style: "normal" };

const BASE_FAMILIES: Record<FontFamily, { pkg: string; subsets: string[]; weights: FontWeight[] }> = {
  Inter: {
    pkg: "inter",
    subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek", "greek-ext"],
    weights: [400, 700],
  },
  "Noto Serif": {
    pkg: "noto-serif",
    subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek", "greek-ext"],
    weights: [400, 700],
  },
  "Great Vibes": {
    pkg: "great-vibes",
    subsets: ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek-ext"],
    weights: [400],
  },
};

const CJK_PACKAGES: Record<CjkScript, { pkg: string; family: string }> = {
  sc: { pkg: "noto-sans-sc", family: "Noto Sans SC" },
  jp: { pkg: "noto-sans-jp", family: "Noto Sans JP" },
  kr: { pkg: "noto-sans-kr", family: "Noto Sans KR" },
};

/** Families tried, in order, after a text's own family (Great Vibes lacks basic Greek, for one). */
const LATIN_FALLBACKS: FontFamily[] = ["Inter", "Noto Serif"];

/** Characters the text layout may add to a text: the ellipsis of cut text, Great Vibes' widened word space. */
const CHAIN_EXTRA_CHARACTERS = "\u2026\u2009 ";

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/;
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/;

/**
 * Which CJK font to prefer for a text: Korean when it has Hangul, Japanese when it has kana, else
 * from the document's locale (ja → Japanese, ko → Korean), else Simplified Chinese. Han characters
 * shared by the three are drawn in the preferred font's regional style.
 */
export function cjkOrder(text: string, locale = "en-US"): CjkScript[] {
  const lang = locale.toLowerCase().split("-")[0];
  const first: CjkScript = HANGUL.test(text)
    ? "kr"
    : KANA.test(text)
      ? "jp"
      : lang === "ja"
        ? "jp"
        : lang === "ko"
          ? "kr"
          : "sc";
  return [first, ...(["sc", "jp", "kr"] as const).filter((s) => s !== first)];
}

type RangeTable = { starts: Uint32Array; ends: Uint32Array; keys: string[] };

function parseUnicodeJson(json: Record<string, string>): RangeTable {
  const ranges: [number, number, string][] = [];
  for (const [rawKey, spec] of Object.entries(json)) {
    const key = rawKey.replace(/^\[|\]$/g, "");
    // Only the numbered CJK slices: the latin/cyrillic/vietnamese ones are covered by the base fonts.
    if (!/^\d+$/.test(key)) continue;
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
  return true;
}

/** An ordered list of font faces used for one text: measuring, coverage and satori's fontFamily. */
export interface FontChain {
  /** Satori `fontFamily` list, primary first. */
  names: string[];
  /** The face used for each name at the requested weight, same order as `names`. */
  faces: LoadedFont[];
}

/** The face that draws a code point in a chain (satori picks the first face with a glyph), or null. */
export function faceFor(chain: FontChain, cp: number): LoadedFont | null {
  for (const face of chain.faces) if (face.metrics.glyphIndex(cp) !== 0) return face;
  return null;
}

/** Characters of `text` no font in the chain has a glyph for (what would render as tofu). */
export function missingInChain(chain: FontChain, text: string): string[] {
  const missing = new Set<string>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (needsGlyph(cp) && !faceFor(chain, cp)) missing.add(ch);
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

/**
 * Owns every font buffer of the process. Base families load on construction (synchronously, ~730 KB
 * of WOFF, ~15 ms); CJK subsets load on demand through `prepare`, the only asynchronous, I/O-doing
 * step. After `prepare`, `chain` and `satoriFonts` are synchronous and pure.
 */
export class FontLibrary {
  readonly root: string;
  /** Distinguishes libraries in caches keyed by font names. */
  readonly id = ++libraries;
  private readonly base = new Map<string, LoadedFont[]>(); // satori name -> faces by weight
  private readonly baseNames = new Map<FontFamily, string[]>();
  private readonly cjk = new Map<string, LoadedFont>(); // `${script}-${subset}-${weight}` -> face
  private readonly cjkPending = new Map<string, Promise<LoadedFont | null>>();
  private readonly cjkTables = new Map<CjkScript, RangeTable>();
  private readonly fontArrays = new Map<string, SatoriFont[]>();
  private readonly baseFonts: SatoriFont[] = [];
  /** Bytes of WOFF data held, for diagnostics. */
  bytesLoaded = 0;

  constructor(options: FontLibraryOptions = {}) {
    this.root = options.root ?? process.cwd();
    for (const [family, spec] of Object.entries(BASE_FAMILIES) as [FontFamily, (typeof BASE_FAMILIES)[FontFamily]][]) {
      const names: string[] = [];
      for (const subset of spec.subsets) {
        const name = subset === "latin" ? family : `${family} ${subset}`;
        names.push(name);
        const faces: LoadedFont[] = [];
        for (const weight of spec.weights) {
          const file = path.join(this.fontDir(spec.pkg), `${spec.pkg}-${subset}-${weight}-normal.woff`);
          const data = readFileSync(file);
          this.bytesLoaded += data.byteLength;
          const face: LoadedFont = { name, weight, style: "normal", data, metrics: readFontMetrics(data) };
          faces.push(face);
          this.baseFonts.push({ name, data, weight, style: "normal" });
        }
        this.base.set(name, faces);
      }
      this.baseNames.set(family, names);
    }
  }

  private fontDir(pkg: string): string {
    return path.join(this.root, "node_modules", "@fontsource", pkg, "files");
  }

  private table(script: CjkScript): RangeTable {
    let table = this.cjkTables.get(script);
    if (!table) {
      const file = path.join(this.root, "node_modules", "@fontsource", CJK_PACKAGES[script].pkg, "unicode.json");
      table = parseUnicodeJson(JSON.parse(readFileSync(file, "utf8")) as Record<string, string>);
      this.cjkTables.set(script, table);
    }
    return table;
  }

  private loadCjk(script: CjkScript, subset: string, weight: FontWeight): Promise<LoadedFont | null> {
    const key = `${script}-${subset}-${weight}`;
    const done = this.cjk.get(key);
    if (done) return Promise.resolve(done);
    let pending = this.cjkPending.get(key);
    if (!pending) {
      const { pkg, family } = CJK_PACKAGES[script];
      const file = path.join(this.fontDir(pkg), `${pkg}-${subset}-${weight}-normal.woff`);
      pending = readFile(file).then(
        (data) => {
          this.bytesLoaded += data.byteLength;
          const face: LoadedFont = { name: `${family} ${subset}`, weight, style: "normal", data, metrics: readFontMetrics(data) };
          this.cjk.set(key, face);
          return face;
        },
        () => null,
      );
      this.cjkPending.set(key, pending);
      void pending.finally(() => this.cjkPending.delete(key));
    }
    return pending;
  }

  private baseChain(family: FontFamily, weight: FontWeight): FontChain {
    const names: string[] = [];
    const faces: LoadedFont[] = [];
    for (const fam of [family, ...LATIN_FALLBACKS.filter((f) => f !== family)]) {
      for (const name of this.baseNames.get(fam)!) {
        const options = this.base.get(name)!;
        names.push(name);
        faces.push(options.find((f) => f.weight === weight) ?? options[0]!);
      }
    }
    return { names, faces };
  }

  /**
   * Load the CJK subsets needed to draw these texts (no-op for texts the base fonts cover). Call
   * before `chain`. Concurrent calls share file reads.
   */
  async prepare(requests: TextFontRequest[]): Promise<void> {
    // Per text, try the preferred CJK font first and only read another font's subsets for the
    // characters the preferred one lacks (a Chinese name reads only Noto Sans SC slices).
    await Promise.all(
      requests.map(async (req) => {
        const base = this.baseChain(req.family, req.weight);
        let pending = [...new Set(req.text)]
          .map((ch) => ch.codePointAt(0)!)
          .filter((cp) => needsGlyph(cp) && !faceFor(base, cp));
        for (const script of cjkOrder(req.text, req.locale)) {
          if (pending.length === 0) break;
          const table = this.table(script);
          const bySubset = new Map<string, number[]>();
          for (const cp of pending) {
            const subset = lookupRange(table, cp);
            if (subset) bySubset.set(subset, [...(bySubset.get(subset) ?? []), cp]);
          }
          const faces = await Promise.all([...bySubset.keys()].map((s) => this.loadCjk(script, s, req.weight)));
          pending = pending.filter((cp) => !faces.some((f) => f && f.metrics.glyphIndex(cp) !== 0));
        }
      }),
    );
  }

  /** The font chain for a text, after `prepare`: the family's subsets, Latin fallbacks, then CJK faces. */
  chain(req: TextFontRequest): FontChain {
    const chain = this.baseChain(req.family, req.weight);
    const extra = new Map<string, LoadedFont>();
    const scripts = cjkOrder(req.text, req.locale);
    for (const ch of new Set(req.text)) {
      const cp = ch.codePointAt(0)!;
      if (!needsGlyph(cp) || faceFor(chain, cp)) continue;
      for (const script of scripts) {
        const subset = lookupRange(this.table(script), cp);
        const face = subset ? this.cjk.get(`${script}-${subset}-${req.weight}`) : undefined;
        if (face && face.metrics.glyphIndex(cp) !== 0) {
          extra.set(face.name, face);
          break;
        }
      }
    }
    for (const face of extra.values()) {
      chain.names.push(face.name);
      chain.faces.push(face);
    }
    // Keep only the faces that draw some character of the text (plus the primary face, and those
    // for the ellipsis and thin space the layout may add). Order is kept, so every character still
    // resolves to the same face, but satori gets 1-4 faces instead of ~20, and parses only those.
    const used = new Set<LoadedFont>([chain.faces[0]!]);
    for (const ch of new Set(req.text + CHAIN_EXTRA_CHARACTERS)) {
      const face = faceFor(chain, ch.codePointAt(0)!);
      if (face) used.add(face);
    }
    const faces = chain.faces.filter((f) => used.has(f));
    return { names: faces.map((f) => f.name), faces };
  }

  /**
   * The `fonts` array for satori holding exactly the given faces. The same set of faces always
   * gives the same array object, so satori's per-array font loader is reused.
   */
  satoriFonts(faces: Iterable<LoadedFont>): SatoriFont[] {
    const list = [...new Set(faces)];
    if (list.length === 0) return this.baseFonts;
    const key = list
      .map((f) => `${f.name}@${f.weight}`)
      .sort()
      .join("|");
    let fonts = this.fontArrays.get(key);
    if (!fonts) {
      fonts = list.map((f) => ({ name: f.name, data: f.data, weight: f.weight, style: "normal" as const }));
      if (this.fontArrays.size > 512) this.fontArrays.clear();
      this.fontArrays.set(key, fonts);
    }
    return fonts;
  }

  /**
   * Characters of `text` that no loaded font can draw in `family` (after loading the CJK subsets it
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
