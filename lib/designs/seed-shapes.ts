// Shapes the starter designs draw that the document has no element for, built from the elements it
// has: a line is a rectangle turned along its direction (its ends are cut square), so a diamond is a
// short thick line at 45°, and a hexagon is three such rectangles through its centre; a rect with a
// full radius is a circle.
import type { DesignDocumentInput } from "../render/document";

type Elements = NonNullable<DesignDocumentInput["elements"]>;

/** The thickest line a document allows. */
const MAX_LINE = 50;

const round = (v: number) => Math.round(v * 100) / 100;

/** A square turned 45°, centred on (cx, cy), `size` from corner to opposite corner. */
export function diamond(id: string, cx: number, cy: number, size: number, color: string): Elements[number] {
  const half = size / 4;
  return { type: "line", id, x1: cx - half, y1: cy - half, x2: cx + half, y2: cy + half, thickness: size / Math.SQRT2, color };
}

/** A circle as a rect with a full radius. */
export function circle(id: string, cx: number, cy: number, r: number, fill: string): Elements[number] {
  return { type: "rect", id, x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, fill, radius: r };
}

/**
 * A filled hexagon with flat top and bottom edges, centred on (cx, cy), `r` from centre to corner:
 * the union of three rectangles r wide joining opposite edges (each reaches four corners), every
 * rectangle drawn as overlapping strips of at most the thickest line.
 */
export function hexagon(id: string, cx: number, cy: number, r: number, color: string): Elements {
  const strips = Math.ceil(r / (MAX_LINE - 4));
  const thickness = Math.min(MAX_LINE, r / strips + 4);
  const step = strips > 1 ? (r - thickness) / (strips - 1) : 0;
  const halfLength = (r * Math.sqrt(3)) / 2;
  const elements: Elements = [];
  for (const [k, angle] of [90, 30, 150].entries()) {
    const dx = Math.cos((angle * Math.PI) / 180);
    const dy = Math.sin((angle * Math.PI) / 180);
    for (let i = 0; i < strips; i++) {
      const offset = -r / 2 + thickness / 2 + i * step;
      const ox = cx - dy * offset;
      const oy = cy + dx * offset;
      elements.push({
        type: "line",
        id: `${id}-${k}-${i}`,
        x1: round(ox - dx * halfLength),
        y1: round(oy - dy * halfLength),
        x2: round(ox + dx * halfLength),
        y2: round(oy + dy * halfLength),
        thickness: round(thickness),
        color,
      });
    }
  }
  return elements;
}

/** A hexagon's outline (flat top), `thickness` wide, its edges lengthened to close the corners. */
export function hexagonOutline(id: string, cx: number, cy: number, r: number, thickness: number, color: string): Elements {
  const corners = [0, 60, 120, 180, 240, 300].map(
    (a) => [cx + r * Math.cos((a * Math.PI) / 180), cy + r * Math.sin((a * Math.PI) / 180)] as const,
  );
  // A butt-ended edge leaves a notch outside each 120° corner; lengthening both edges by t/(2√3) fills it.
  const extra = thickness / (2 * Math.sqrt(3));
  return corners.map(([x1, y1], i) => {
    const [x2, y2] = corners[(i + 1) % 6]!;
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = ((x2 - x1) / len) * extra;
    const uy = ((y2 - y1) / len) * extra;
    return {
      type: "line",
      id: `${id}-${i}`,
      x1: round(x1 - ux),
      y1: round(y1 - uy),
      x2: round(x2 + ux),
      y2: round(y2 + uy),
      thickness,
      color,
    };
  });
}

/**
 * A heater shield: straight sides from a flat top with rounded corners down to a half-circle bottom.
 * `width` wide, `height` tall (at least its width), top left at (x, y).
 */
export function shield(id: string, x: number, y: number, width: number, height: number, corner: number, fill: string): Elements {
  const r = width / 2;
  return [
    // The rounded top corners; square sides from below them to the circle's widest line; the circle.
    { type: "rect", id: `${id}-top`, x, y, width, height: 2 * corner + 1, radius: corner, fill },
    { type: "rect", id: `${id}-sides`, x, y: y + corner, width, height: height - r - corner, fill },
    { type: "rect", id: `${id}-bottom`, x, y: y + height - width, width, height: width, radius: r, fill },
  ];
}

/** `count` circles of radius `r` evenly round a circle of radius `ring` (a rosette's scalloped edge). */
export function scallops(id: string, cx: number, cy: number, ring: number, count: number, r: number, fill: string): Elements {
  return Array.from({ length: count }, (_, i) => {
    const a = (2 * Math.PI * i) / count;
    return circle(`${id}-${i}`, round(cx + ring * Math.cos(a)), round(cy + ring * Math.sin(a)), r, fill);
  });
}
