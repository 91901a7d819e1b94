// A minimal reader for the parts of a WOFF (or bare TTF/OTF) font the renderer needs outside HarfBuzz:
// the character map (coverage checks choose each character's face with it), horizontal advances and
// the hhea ascent and descent (line boxes); and WOFF unwrapped to the sfnt HarfBuzz reads.
import { inflateSync } from "node:zlib";

export interface FontMetrics {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  /** Glyph index for a code point, 0 when the font has no glyph for it. */
  glyphIndex(codePoint: number): number;
  /** Advance width of a glyph, in font units. */
  advance(glyph: number): number;
  /** Number of code points the font maps (for diagnostics). */
  readonly mappedCount: number;
}

function tables(data: Uint8Array): Map<string, DataView> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const signature = view.getUint32(0);
  const out = new Map<string, DataView>();
  if (signature === 0x774f4646 /* wOFF */) {
    const numTables = view.getUint16(12);
    for (let i = 0; i < numTables; i++) {
      const rec = 44 + i * 20;
      const tag = String.fromCharCode(data[rec]!, data[rec + 1]!, data[rec + 2]!, data[rec + 3]!);
      const offset = view.getUint32(rec + 4);
      const compLength = view.getUint32(rec + 8);
      const origLength = view.getUint32(rec + 12);
      if (!["cmap", "head", "hhea", "hmtx"].includes(tag)) continue;
      const raw = data.subarray(offset, offset + compLength);
      const bytes = compLength < origLength ? new Uint8Array(inflateSync(raw)) : raw;
      out.set(tag, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
    return out;
  }
  if (signature === 0x00010000 || signature === 0x4f54544f /* OTTO */ || signature === 0x74727565 /* true */) {
    const numTables = view.getUint16(4);
    for (let i = 0; i < numTables; i++) {
      const rec = 12 + i * 16;
      const tag = String.fromCharCode(data[rec]!, data[rec + 1]!, data[rec + 2]!, data[rec + 3]!);
      const offset = view.getUint32(rec + 8);
      const length = view.getUint32(rec + 12);
      out.set(tag, new DataView(data.buffer, data.byteOffset + offset, length));
    }
    return out;
  }
  if (signature === 0x774f4632) throw new Error("WOFF2 fonts are not supported: use the .woff file");
  throw new Error("not a WOFF, TrueType or OpenType font");
}

function parseCmap(cmap: DataView): Map<number, number> {
  const numTables = cmap.getUint16(2);
  let best: { offset: number; format: number; rank: number } | null = null;
  for (let i = 0; i < numTables; i++) {
    const platform = cmap.getUint16(4 + i * 8);
    const encoding = cmap.getUint16(6 + i * 8);
    const offset = cmap.getUint32(8 + i * 8);
    const format = cmap.getUint16(offset);
    // Prefer full-Unicode format 12 tables, then BMP format 4 ones.
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || (format !== 4 && format !== 12)) continue;
    const rank = format === 12 ? 2 : 1;
    if (!best || rank > best.rank) best = { offset, format, rank };
  }
  const map = new Map<number, number>();
  if (!best) return map;
  const o = best.offset;
  if (best.format === 12) {
    const groups = cmap.getUint32(o + 12);
    for (let g = 0; g < groups; g++) {
      const start = cmap.getUint32(o + 16 + g * 12);
      const end = cmap.getUint32(o + 20 + g * 12);
      const glyph = cmap.getUint32(o + 24 + g * 12);
      for (let c = start; c <= end; c++) map.set(c, glyph + (c - start));
    }
    return map;
  }
  const segX2 = cmap.getUint16(o + 6);
  const endCodes = o + 14;
  const startCodes = endCodes + segX2 + 2;
  const deltas = startCodes + segX2;
  const rangeOffsets = deltas + segX2;
  for (let s = 0; s < segX2; s += 2) {
    const end = cmap.getUint16(endCodes + s);
    const start = cmap.getUint16(startCodes + s);
    const delta = cmap.getInt16(deltas + s);
    const rangeOffset = cmap.getUint16(rangeOffsets + s);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number;
      if (rangeOffset === 0) {
        glyph = (c + delta) & 0xffff;
      } else {
        const at = rangeOffsets + s + rangeOffset + (c - start) * 2;
        glyph = cmap.getUint16(at);
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) map.set(c, glyph);
    }
  }
  return map;
}

export function readFontMetrics(data: Uint8Array): FontMetrics {
  const t = tables(data);
  const head = t.get("head");
  const hhea = t.get("hhea");
  const hmtx = t.get("hmtx");
  const cmap = t.get("cmap");
  if (!head || !hhea || !hmtx || !cmap) throw new Error("font lacks a head, hhea, hmtx or cmap table");
  const unitsPerEm = head.getUint16(18);
  const ascender = hhea.getInt16(4);
  const descender = hhea.getInt16(6);
  const numberOfHMetrics = hhea.getUint16(34);
  const advances = new Uint16Array(numberOfHMetrics);
  for (let i = 0; i < numberOfHMetrics; i++) advances[i] = hmtx.getUint16(i * 4);
  const lastAdvance = numberOfHMetrics > 0 ? advances[numberOfHMetrics - 1]! : 0;
  const map = parseCmap(cmap);
  return {
    unitsPerEm,
    ascender,
    descender,
    glyphIndex: (cp) => map.get(cp) ?? 0,
    advance: (glyph) => (glyph < numberOfHMetrics ? advances[glyph]! : lastAdvance),
    mappedCount: map.size,
  };
}

/**
 * A WOFF (1.0) font as the bare TrueType/OpenType file it wraps: HarfBuzz reads sfnt, not WOFF.
 * WOFF is the sfnt's tables, each zlib-compressed when that made it smaller; this inflates them back
 * into a table directory with the checksums the WOFF carries. A bare TTF/OTF is returned as it is.
 */
export function woffToSfnt(data: Uint8Array): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0) !== 0x774f4646 /* wOFF */) return data;
  const flavor = view.getUint32(4);
  const numTables = view.getUint16(12);
  const records = [];
  for (let i = 0; i < numTables; i++) {
    const rec = 44 + i * 20;
    records.push({
      tag: data.subarray(rec, rec + 4),
      offset: view.getUint32(rec + 4),
      compLength: view.getUint32(rec + 8),
      origLength: view.getUint32(rec + 12),
      checksum: view.getUint32(rec + 16),
    });
  }
  const padded = (n: number) => (n + 3) & ~3;
  let size = 12 + 16 * numTables;
  for (const r of records) size += padded(r.origLength);
  const out = new Uint8Array(size);
  const o = new DataView(out.buffer);
  // searchRange, entrySelector and rangeShift: the binary-search hints of the table directory.
  const entrySelector = Math.floor(Math.log2(Math.max(1, numTables)));
  o.setUint32(0, flavor);
  o.setUint16(4, numTables);
  o.setUint16(6, 16 << entrySelector);
  o.setUint16(8, entrySelector);
  o.setUint16(10, numTables * 16 - (16 << entrySelector));
  let at = 12 + 16 * numTables;
  records.forEach((r, i) => {
    const raw = data.subarray(r.offset, r.offset + r.compLength);
    const bytes = r.compLength < r.origLength ? new Uint8Array(inflateSync(raw)) : raw;
    out.set(r.tag, 12 + i * 16);
    o.setUint32(16 + i * 16, r.checksum);
    o.setUint32(20 + i * 16, at);
    o.setUint32(24 + i * 16, r.origLength);
    out.set(bytes, at);
    at += padded(r.origLength);
  });
  return out;
}
