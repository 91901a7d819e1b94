// Colours of a design document (`#rgb`, `#rrggbb`, `#rrggbbaa`) as numbers, parsed once when a
// document is prepared; each painter writes them in its own format.

export type Rgba = { r: number; g: number; b: number; a: number };

export function parseColor(hex: string): Rgba {
  let h = hex.slice(1);
  if (h.length === 3) h = [...h].map((c) => c + c).join("");
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
}
