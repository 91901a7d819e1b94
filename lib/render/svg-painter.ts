// The SVG painter: a prepared document as one plain SVG in points (no fonts, clip paths or masks:
// cheap to rasterise). Text is glyph outlines, so the SVG needs no fonts; colour emoji are Twemoji's
// SVGs inlined.
import { assetDataUri } from "./assets";
import type { Rgba } from "./color";
import { LAYOUT_SCALE, type PlacedEmoji } from "./glyph-outlines";
import { inkedRuns, paint, type Painter } from "./painter";
import type { ElementPlan, ImageDrawing, LinePlan, PreparedRender, Ring, RoundedRect } from "./prepared";

const f2 = (v: number) => String(Math.round(v * 100) / 100);

function svgPaint({ r, g, b, a }: Rgba, attr: "fill" | "stroke"): string {
  return `${attr}="rgb(${r},${g},${b})"${a < 1 ? ` ${attr}-opacity="${+a.toFixed(3)}"` : ""}`;
}

/** SVG path data of a rectangle with rounded corners (arcs). */
function roundedRectPath({ x, y, w, h, r }: RoundedRect): string {
  if (r <= 0) return `M${f2(x)} ${f2(y)}h${f2(w)}v${f2(h)}h${f2(-w)}z`;
  return (
    `M${f2(x + r)} ${f2(y)}h${f2(w - 2 * r)}a${f2(r)} ${f2(r)} 0 0 1 ${f2(r)} ${f2(r)}v${f2(h - 2 * r)}` +
    `a${f2(r)} ${f2(r)} 0 0 1 ${f2(-r)} ${f2(r)}h${f2(-(w - 2 * r))}a${f2(r)} ${f2(r)} 0 0 1 ${f2(-r)} ${f2(-r)}` +
    `v${f2(-(h - 2 * r))}a${f2(r)} ${f2(r)} 0 0 1 ${f2(r)} ${f2(-r)}z`
  );
}

/** A ring as path data, to be filled even-odd. */
function ringPath(ring: Ring): string {
  return roundedRectPath(ring.outer) + (ring.inner ? roundedRectPath(ring.inner) : "");
}

function svgImage({ asset, x, y, w, h, fit, opacity }: ImageDrawing): string {
  return (
    `<image x="${f2(x)}" y="${f2(y)}" width="${f2(w)}" height="${f2(h)}" preserveAspectRatio="xMidYMid ${fit === "cover" ? "slice" : "meet"}"` +
    `${opacity < 1 ? ` opacity="${opacity}"` : ""} href="${assetDataUri(asset)}"/>`
  );
}

/** A Twemoji SVG (viewBox 0 0 36 36) as a nested SVG of the emoji's size at its place. */
function svgEmoji({ image, x, y, size }: PlacedEmoji): string {
  return image.svg.replace(/^<svg\b/, `<svg x="${f2(x)}" y="${f2(y)}" width="${f2(size)}" height="${f2(size)}"`);
}

/** Each method returns the element's SVG markup. */
function svgPainter(width: number, height: number): Painter<string> {
  return {
    background: ({ color, image }) =>
      `<rect width="${width}" height="${height}" ${svgPaint(color, "fill")}/>` + (image ? svgImage(image) : ""),
    text(plan) {
      const runs = inkedRuns(plan);
      const emoji = plan.runs
        .flatMap((run) => run.emoji)
        .map(svgEmoji)
        .join("");
      if (!runs.length) return emoji;
      const paths = runs.map(
        (run) => `<path transform="translate(${f2(run.x)} ${f2(run.y)}) scale(${1 / LAYOUT_SCALE})" d="${run.outline.d}"/>`,
      );
      return `<g ${svgPaint(plan.color, "fill")}>${paths.join("")}</g>${emoji}`;
    },
    rect: ({ fill, stroke }) =>
      (fill ? `<path ${svgPaint(fill.color, "fill")} d="${roundedRectPath(fill.shape)}"/>` : "") +
      (stroke ? `<path fill-rule="evenodd" ${svgPaint(stroke.color, "fill")} d="${ringPath(stroke.ring)}"/>` : ""),
    line: ({ x1, y1, x2, y2, thickness, color }) =>
      `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke-width="${thickness}" ${svgPaint(color, "stroke")}/>`,
    border: ({ color, rings }) =>
      rings.length ? `<path fill-rule="evenodd" ${svgPaint(color, "fill")} d="${rings.map(ringPath).join("")}"/>` : "",
    qr({ x, y, size, background, code }) {
      const box = `<rect x="${x}" y="${y}" width="${size}" height="${size}" ${svgPaint(background, "fill")}/>`;
      if (!code) return box;
      const d = code.runs.map(([col, row, n]) => `M${col} ${row}h${n}v1h${-n}z`).join("");
      return (
        box +
        `<path shape-rendering="crispEdges" transform="translate(${f2(code.x)} ${f2(code.y)}) scale(${code.moduleSize})" ` +
        `${svgPaint(code.color, "fill")} d="${d}"/>`
      );
    },
    image: ({ image }) => svgImage(image),
  };
}

const sameStroke = (a: LinePlan, b: LinePlan) =>
  a.thickness === b.thickness && a.color.r === b.color.r && a.color.g === b.color.g && a.color.b === b.color.b && a.color.a === b.color.a;

/**
 * Consecutive opaque lines of one colour and thickness as one stroked path: the union of the strokes,
 * which is what painting them one over the other gives when nothing shows through, rasterised once
 * instead of once per line. Shapes built of overlapping strips (the hexagon badge: 45 lines) cost
 * resvg a third less, and their inner seams lose the faint anti-aliasing lines overlapping edges leave.
 * A translucent line stays on its own: where two overlap, the overlap is darker, as designed.
 */
function paintElements(painter: Painter<string>, elements: ElementPlan[]): string {
  const out: string[] = [];
  for (let i = 0; i < elements.length;) {
    const plan = elements[i]!;
    let end = i + 1;
    if (plan.kind === "line" && plan.color.a >= 1) {
      while (end < elements.length) {
        const next = elements[end]!;
        if (next.kind !== "line" || !sameStroke(plan, next)) break;
        end++;
      }
    }
    if (end - i < 2) {
      out.push(paint(painter, plan));
    } else {
      const lines = elements.slice(i, end) as LinePlan[];
      const d = lines.map(({ x1, y1, x2, y2 }) => `M${x1} ${y1}L${x2} ${y2}`).join("");
      out.push(`<path fill="none" stroke-width="${lines[0]!.thickness}" ${svgPaint(lines[0]!.color, "stroke")} d="${d}"/>`);
    }
    i = end;
  }
  return out.join("");
}

/**
 * The prepared design as an SVG document in points (viewBox = canvas size), `widthPx` wide when
 * given.
 */
export function svgOf(prepared: PreparedRender, widthPx?: number): string {
  const { width: W, height: H, background, elements } = prepared.layout;
  const w = widthPx ?? W;
  const h = Math.round(((w * H) / W) * 100) / 100;
  const painter = svgPainter(W, H);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${W} ${H}">` +
    painter.background(background) +
    paintElements(painter, elements) +
    "</svg>"
  );
}
