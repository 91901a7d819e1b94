// PDF content-stream writing: numbers, colours, rounded rectangles and rings in page coordinates
// (y up) from the document's top-left points, and glyph outlines as PDF path operators.
import type { Rgba } from "./color";
import type { Ring, RoundedRect } from "./prepared";

/** A number for a content stream: two decimals, never "-0". */
export const n2 = (v: number) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? "0" : String(r);
};

/** A PDF content stream under construction (coordinates converted from top-left points). */
export class Content {
  parts: string[] = [];
  constructor(private readonly pageHeight: number) {}
  y(v: number) {
    return this.pageHeight - v;
  }
  op(s: string) {
    this.parts.push(s);
  }
  fillColor({ r, g, b }: Rgba) {
    this.op(`${n2(r / 255)} ${n2(g / 255)} ${n2(b / 255)} rg`);
  }
  strokeColor({ r, g, b }: Rgba) {
    this.op(`${n2(r / 255)} ${n2(g / 255)} ${n2(b / 255)} RG`);
  }
  /** A rectangle with optional rounded corners (Bézier quarter circles), as a path. */
  roundedRect({ x, y, w, h, r }: RoundedRect) {
    if (r <= 0) {
      this.op(`${n2(x)} ${n2(this.y(y + h))} ${n2(w)} ${n2(h)} re`);
      return;
    }
    const c = r * 0.5522847498;
    const X = (v: number) => n2(v);
    const Y = (v: number) => n2(this.y(v));
    this.op(
      `${X(x + r)} ${Y(y)} m ${X(x + w - r)} ${Y(y)} l ` +
        `${X(x + w - r + c)} ${Y(y)} ${X(x + w)} ${Y(y + r - c)} ${X(x + w)} ${Y(y + r)} c ` +
        `${X(x + w)} ${Y(y + h - r)} l ` +
        `${X(x + w)} ${Y(y + h - r + c)} ${X(x + w - r + c)} ${Y(y + h)} ${X(x + w - r)} ${Y(y + h)} c ` +
        `${X(x + r)} ${Y(y + h)} l ` +
        `${X(x + r - c)} ${Y(y + h)} ${X(x)} ${Y(y + h - r + c)} ${X(x)} ${Y(y + h - r)} c ` +
        `${X(x)} ${Y(y + r)} l ` +
        `${X(x)} ${Y(y + r - c)} ${X(x + r - c)} ${Y(y)} ${X(x + r)} ${Y(y)} c h`,
    );
  }
  /** A ring, filled even-odd. */
  ring({ outer, inner }: Ring) {
    this.roundedRect(outer);
    if (inner) this.roundedRect(inner);
    this.op("f*");
  }
}

/**
 * Converts glyph outline path data (glyph-outlines.ts: absolute M/L/Q/C/Z in units of 1/k point, y down) to
 * PDF path operators in points, y up, with a box holding the whole outline.
 */
export function svgPathToPdf(d: string, k: number): { ops: string; bbox: [number, number, number, number] } {
  const tokens = d.match(/[MLQCZmlqcz]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  const out: string[] = [];
  let i = 0;
  let cmd = "";
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  const num = () => Number(tokens[i++]);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const X = (v: number) => {
    const x = v / k;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    return n2(x);
  };
  const Y = (v: number) => {
    const y = -v / k;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    return n2(y);
  };
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (/[A-Za-z]/.test(t)) {
      cmd = t;
      i++;
      if (cmd === "Z" || cmd === "z") {
        out.push("h");
        cx = sx;
        cy = sy;
        continue;
      }
    }
    switch (cmd) {
      case "M": {
        cx = sx = num();
        cy = sy = num();
        out.push(`${X(cx)} ${Y(cy)} m`);
        cmd = "L";
        break;
      }
      case "L": {
        cx = num();
        cy = num();
        out.push(`${X(cx)} ${Y(cy)} l`);
        break;
      }
      case "Q": {
        const qx = num();
        const qy = num();
        const x = num();
        const y = num();
        const c1x = cx + (2 / 3) * (qx - cx);
        const c1y = cy + (2 / 3) * (qy - cy);
        const c2x = x + (2 / 3) * (qx - x);
        const c2y = y + (2 / 3) * (qy - y);
        out.push(`${X(c1x)} ${Y(c1y)} ${X(c2x)} ${Y(c2y)} ${X(x)} ${Y(y)} c`);
        cx = x;
        cy = y;
        break;
      }
      case "C": {
        const a = [num(), num(), num(), num(), num(), num()];
        out.push(`${X(a[0]!)} ${Y(a[1]!)} ${X(a[2]!)} ${Y(a[3]!)} ${X(a[4]!)} ${Y(a[5]!)} c`);
        cx = a[4]!;
        cy = a[5]!;
        break;
      }
      default:
        // Relative commands never appear in glyph outlines; skip anything unexpected.
        i++;
    }
  }
  // Control points bound the curves, so this box (plus a hair) holds the whole outline.
  const bbox: [number, number, number, number] =
    minX === Infinity ? [0, 0, 0, 0] : [Math.floor(minX - 1), Math.floor(minY - 1), Math.ceil(maxX + 1), Math.ceil(maxY + 1)];
  return { ops: out.join(" "), bbox };
}
