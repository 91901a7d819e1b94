// A loaded font face: what the font library hands out and the shaper shapes with. Its own module so
// that the shaper (which fonts.ts loads) need not import fonts.ts back.
import type { FontMetrics } from "./woff";

export type FontWeight = 400 | 700;

/** One font face, with its metrics for coverage checks and the line box. */
export interface LoadedFont {
  /** Unique in the process (caches of shaped text and glyph outlines key on it). */
  id: number;
  /** Unique name of this face, e.g. "Inter latin-ext", "Noto Sans Arabic" or "Noto Sans JP 57". */
  name: string;
  weight: FontWeight;
  style: "normal";
  data: Buffer;
  metrics: FontMetrics;
}
