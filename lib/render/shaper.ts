// HarfBuzz (harfbuzzjs, WebAssembly): glyphs and positions for a run of text in one face, for any
// script (Arabic joining and ligatures, Indic reordering and conjuncts, Thai and Hebrew marks,
// mirrored brackets in right-to-left runs), and glyph outlines. Chosen over code of our own and over
// fontkit's layout engine because HarfBuzz is the shaper browsers and operating systems use: what it
// draws is what a reader of the script expects, and what Chromium shows for the same text.
//
// The WebAssembly module loads once per process, on the first `loadShaper()` (FontLibrary.prepare
// awaits it); after that everything here is synchronous. Each face is handed to HarfBuzz the first
// time it is shaped (its WOFF unwrapped to sfnt), and its glyph outlines are kept once drawn.
import type * as HarfBuzz from "harfbuzzjs";
import type { LoadedFont } from "./font-face";
import { processSlot } from "../core/process-singleton";
import { woffToSfnt } from "./woff";

type HB = typeof HarfBuzz;

// The loaded module is kept per process, not per copy of this module: the font library is a process
// singleton, so a font prepared by one copy (a Next route bundle, whose prepare() loaded HarfBuzz there)
// is then shaped by another (server.ts rendering a preview), which must find HarfBuzz loaded too.
const loaded = () => processSlot<HB>("render.harfbuzz");
const loading = () => processSlot<Promise<void>>("render.harfbuzzLoading");

/** Loads HarfBuzz's WebAssembly module (once per process). */
export function loadShaper(): Promise<void> {
  const slot = loading();
  slot.current ??= import("harfbuzzjs").then((mod) => {
    loaded().current = mod;
  });
  return slot.current;
}

function harfBuzz(): HB {
  const hb = loaded().current;
  if (!hb) throw new Error("HarfBuzz is not loaded: await loadShaper() (FontLibrary.prepare does) first");
  return hb;
}

/** A shaped glyph, in em (font units / unitsPerEm), y up. */
export interface ShapedGlyph {
  gid: number;
  /** UTF-16 index in the shaped text of the first character of this glyph's cluster. */
  cluster: number;
  advance: number;
  dx: number;
  dy: number;
}

/** Glyph outline commands in font units, y up: M/L x y, Q cx cy x y, C c1x c1y c2x c2y x y, Z. */
export type GlyphPath = { type: string; values: number[] }[];

interface ShaperFace {
  font: HarfBuzz.Font;
  upem: number;
  paths: Map<number, GlyphPath>;
}

const faces = new WeakMap<LoadedFont, ShaperFace>();

function shaperFace(face: LoadedFont): ShaperFace {
  let f = faces.get(face);
  if (!f) {
    const h = harfBuzz();
    const hbFace = new h.Face(new h.Blob(woffToSfnt(face.data)));
    f = { font: new h.Font(hbFace), upem: hbFace.upem, paths: new Map() };
    faces.set(face, f);
  }
  return f;
}

let buffer: HarfBuzz.Buffer | null = null;
let plainFeatures: HarfBuzz.Feature[] | null = null;

/**
 * Shapes `text[start, end)` in one face and direction (the rest of `text` is context: Arabic joins
 * across a change of font). `plain` turns kerning and optional ligatures off: Latin, Greek,
 * Cyrillic and CJK text is drawn with each glyph's own advance, as designs were made and as the
 * golden images show; every other script gets all its default features. Glyphs come in visual
 * order (right to left runs reversed).
 */
export function shapeRun(face: LoadedFont, text: string, start: number, end: number, rtl: boolean, plain: boolean): ShapedGlyph[] {
  const h = harfBuzz();
  const f = shaperFace(face);
  buffer ??= new h.Buffer();
  plainFeatures ??= ["-kern", "-liga", "-clig", "-calt", "-dlig"].map((s) => h.Feature.fromString(s)!);
  const buf = buffer;
  buf.reset();
  buf.addText(text, start, end - start);
  buf.setDirection(rtl ? h.Direction.RTL : h.Direction.LTR);
  buf.guessSegmentProperties();
  h.shape(f.font, buf, plain ? plainFeatures : undefined);
  const infos = buf.getGlyphInfos();
  const positions = buf.getGlyphPositions();
  const upem = f.upem;
  return infos.map((info, i) => {
    const p = positions[i]!;
    return { gid: info.codepoint, cluster: info.cluster, advance: p.xAdvance / upem, dx: p.xOffset / upem, dy: p.yOffset / upem };
  });
}

/** A glyph's outline in font units (kept per face once drawn). */
export function glyphPath(face: LoadedFont, gid: number): GlyphPath {
  const f = shaperFace(face);
  let path = f.paths.get(gid);
  if (!path) {
    path = f.font.glyphToJson(gid);
    f.paths.set(gid, path);
  }
  return path;
}

/** Units per em of a face as HarfBuzz reads it. */
export function unitsPerEm(face: LoadedFont): number {
  return shaperFace(face).upem;
}
