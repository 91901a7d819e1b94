// The SVG painter's one optimisation: consecutive opaque lines of one stroke become one stroked path
// (the union of the strokes, what painting them in turn gives), and everything else keeps its order.
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import type { LinePlan, PreparedRender, RectPlan } from "./prepared";
import { RESVG_BASE } from "./raster";
import { svgOf } from "./svg-painter";

const gold = { r: 200, g: 160, b: 60, a: 1 };
const line = (index: number, x: number, extra: Partial<LinePlan> = {}): LinePlan => ({
  kind: "line",
  index,
  x1: x,
  y1: 10,
  x2: x,
  y2: 90,
  thickness: 12,
  color: gold,
  ...extra,
});
const rect: RectPlan = {
  kind: "rect",
  index: 9,
  fill: { color: { r: 0, g: 0, b: 255, a: 1 }, shape: { x: 0, y: 0, w: 10, h: 10, r: 0 } },
  stroke: null,
} as unknown as RectPlan;

const svgWith = (elements: PreparedRender["layout"]["elements"]) =>
  svgOf({
    layout: { width: 100, height: 100, background: { color: { r: 255, g: 255, b: 255, a: 1 }, image: null }, elements },
  } as PreparedRender);

describe("svgOf: lines", () => {
  it("consecutive opaque lines of one colour and thickness are one path, drawn like the lines one by one", () => {
    const lines = [line(0, 20), line(1, 26), line(2, 32)];
    const svg = svgWith(lines);
    expect(svg.match(/<line/g)).toBeNull();
    expect(svg).toContain('<path fill="none" stroke-width="12" stroke="rgb(200,160,60)" d="M20 10L20 90M26 10L26 90M32 10L32 90"/>');
    // The same pixels as the lines painted in turn (opaque: an overlap is just covered again).
    const oneByOne = svgWith([line(0, 20), rect, line(1, 26), rect, line(2, 32)]).replace(/<path fill="rgb\(0,0,255\)"[^>]*\/>/g, "");
    const render = (markup: string) => new Resvg(markup, { ...RESVG_BASE, fitTo: { mode: "width", value: 100 } }).render().pixels;
    expect(Buffer.from(render(svg)).equals(Buffer.from(render(oneByOne)))).toBe(true);
  });

  it("a translucent line, another thickness or colour, or an element between them, breaks the run", () => {
    const translucent = { ...gold, a: 0.5 };
    const svg = svgWith([
      line(0, 10),
      line(1, 20, { thickness: 4 }),
      line(2, 30, { color: { ...gold, r: 10 } }),
      line(3, 40, { color: translucent }),
      line(4, 50, { color: translucent }),
      rect,
      line(5, 60),
    ]);
    expect(svg.match(/<line/g)).toHaveLength(6);
    expect(svg).not.toContain('fill="none"');
    // Document order is kept: the rectangle comes before the last line.
    expect(svg.indexOf('fill="rgb(0,0,255)"')).toBeLessThan(svg.lastIndexOf("<line"));
  });
});
