import { describe, expect, it } from "vitest";
import { DesignDocument, type DesignElement } from "@/lib/render/document";
import {
  alignElements,
  boxesOverlap,
  centerElement,
  distributeElements,
  elementBox,
  placeInFreeSpace,
  PLACEMENT_GAP,
  type AlignEdge,
  elementLabel,
  moveElement,
  moveLineEnd,
  newElement,
  resizeElement,
  scaleToCanvas,
  MIN_BOX,
  MIN_QR,
} from "./geometry";

const A4_LANDSCAPE = { width: 842, height: 595 };
const A4_PORTRAIT = { width: 595, height: 842 };

const text = newElement("text", A4_LANDSCAPE);
const qr = newElement("qr", A4_LANDSCAPE) as Extract<DesignElement, { type: "qr" }>;
const line = newElement("line", A4_LANDSCAPE) as Extract<DesignElement, { type: "line" }>;

/** The server's own rules: a document with these elements must be one PATCH /v1/designs accepts. */
function accepted(
  elements: DesignElement[],
  canvas: { size: "A4"; orientation: "landscape" | "portrait" } = { size: "A4", orientation: "landscape" },
) {
  return DesignDocument.safeParse({ version: 1, canvas, elements }).success;
}

describe("new elements", () => {
  it("are valid documents on every canvas, centred", () => {
    for (const type of ["text", "rect", "line", "border", "qr"] as const) {
      expect(accepted([newElement(type, A4_LANDSCAPE)]), type).toBe(true);
    }
    const image = newElement("image", A4_LANDSCAPE, { asset: "logo", width: 400, height: 100 });
    expect(image).toMatchObject({ width: 160, height: 40 });
    expect(accepted([image])).toBe(true);
    if (text.type !== "text") throw new Error();
    expect(text.x + text.width / 2).toBeCloseTo(421, 0);
  });
});

describe("moving", () => {
  it("moves by the drag and stops at every edge", () => {
    expect(moveElement(text, 10, -5, A4_LANDSCAPE)).toMatchObject({ x: (text as { x: number }).x + 10, y: (text as { y: number }).y - 5 });
    const farRight = moveElement(text, 5000, 5000, A4_LANDSCAPE) as Extract<DesignElement, { type: "text" }>;
    expect(farRight.x + farRight.width).toBe(842);
    expect(farRight.y + farRight.height).toBe(595);
    expect(moveElement(text, -5000, -5000, A4_LANDSCAPE)).toMatchObject({ x: 0, y: 0 });
    expect(accepted([farRight])).toBe(true);
  });

  it("moves both ends of a line together, keeping its length at the edge", () => {
    const moved = moveElement(line, -5000, 0, A4_LANDSCAPE) as typeof line;
    expect(Math.min(moved.x1, moved.x2)).toBe(0);
    expect(moved.x2 - moved.x1).toBe(line.x2 - line.x1);
  });

  it("drags one end of a line, inside the canvas", () => {
    expect(moveLineEnd(line, 2, 9999, -9999, A4_LANDSCAPE)).toMatchObject({ x1: line.x1, y1: line.y1, x2: 842, y2: 0 });
  });

  it("centres an element on either axis", () => {
    const off = moveElement(qr, -300, -300, A4_LANDSCAPE) as typeof qr;
    expect(centerElement(off, "x", A4_LANDSCAPE)).toMatchObject({ x: (842 - qr.size) / 2, y: off.y });
    expect(centerElement(off, "y", A4_LANDSCAPE)).toMatchObject({ x: off.x, y: (595 - qr.size) / 2 });
  });
});

describe("resizing", () => {
  const box = {
    ...(newElement("rect", A4_LANDSCAPE) as Extract<DesignElement, { type: "rect" }>),
    x: 100,
    y: 100,
    width: 200,
    height: 100,
  };

  it("moves only the dragged sides", () => {
    expect(resizeElement(box, "se", 20, 10, A4_LANDSCAPE)).toMatchObject({ x: 100, y: 100, width: 220, height: 110 });
    expect(resizeElement(box, "nw", 20, 10, A4_LANDSCAPE)).toMatchObject({ x: 120, y: 110, width: 180, height: 90 });
    expect(resizeElement(box, "e", 20, 999, A4_LANDSCAPE)).toMatchObject({ x: 100, y: 100, width: 220, height: 100 });
  });

  it("never goes below the minimum size or past the canvas", () => {
    expect(resizeElement(box, "se", -1000, -1000, A4_LANDSCAPE)).toMatchObject({ width: MIN_BOX, height: MIN_BOX });
    expect(resizeElement(box, "nw", 1000, 1000, A4_LANDSCAPE)).toMatchObject({ x: 292, y: 192, width: MIN_BOX, height: MIN_BOX });
    expect(resizeElement(box, "se", 5000, 5000, A4_LANDSCAPE)).toMatchObject({ width: 742, height: 495 });
    expect(resizeElement(box, "nw", -5000, -5000, A4_LANDSCAPE)).toMatchObject({ x: 0, y: 0, width: 300, height: 200 });
  });

  it("keeps a QR code square, anchored at the opposite corner", () => {
    const q = { ...qr, x: 100, y: 100, size: 80 };
    expect(resizeElement(q, "se", 20, 20, A4_LANDSCAPE)).toMatchObject({ x: 100, y: 100, size: 100 });
    expect(resizeElement(q, "nw", 20, 20, A4_LANDSCAPE)).toMatchObject({ x: 120, y: 120, size: 60 });
    expect(resizeElement(q, "nw", 500, 500, A4_LANDSCAPE)).toMatchObject({ size: MIN_QR, x: 156, y: 156 });
    expect(resizeElement(q, "se", 5000, 5000, A4_LANDSCAPE)).toMatchObject({ x: 100, y: 100, size: 495 });
  });
});

describe("changing the canvas", () => {
  it("carries a layout from landscape to portrait without anything falling off", () => {
    const elements: DesignElement[] = [
      moveElement(text, 5000, 5000, A4_LANDSCAPE),
      moveElement(qr, 5000, 5000, A4_LANDSCAPE),
      moveLineEnd(line, 2, 5000, 0, A4_LANDSCAPE),
      newElement("border", A4_LANDSCAPE),
    ];
    const scaled = scaleToCanvas(elements, A4_LANDSCAPE, A4_PORTRAIT);
    expect(accepted(scaled, { size: "A4", orientation: "portrait" })).toBe(true);
    const t = scaled[0] as Extract<DesignElement, { type: "text" }>;
    expect(t.x + t.width).toBeCloseTo(595, 0);
    expect(t.font.size).toBeCloseTo(24 * (595 / 842), 1);
    const q = scaled[1] as typeof qr;
    expect(q.x + q.size).toBeLessThanOrEqual(595);
    expect(q.y + q.size).toBeLessThanOrEqual(842);
  });
});

describe("elementLabel: layers are named by their text or their kind", () => {
  const canvas = A4_LANDSCAPE;
  it("a text by its words, cut with an ellipsis; other elements by kind", () => {
    expect(elementLabel({ ...text, text: "Certificate of\n  Achievement in Applied Mathematics" } as typeof text)).toBe(
      "Text: Certificate of Achievement in A…",
    );
    expect(elementLabel({ ...text, text: "  " } as typeof text)).toBe("Text: (empty)");
    expect(elementLabel(newElement("rect", canvas))).toBe("Rectangle");
    expect(elementLabel(newElement("qr", canvas))).toBe("QR code");
    expect(elementLabel(newElement("line", canvas))).toBe("Line");
    expect(elementLabel(newElement("border", canvas))).toBe("Border");
    expect(elementLabel(newElement("image", canvas, { asset: "seal", width: 100, height: 100 }))).toBe("Image: seal");
  });
});

describe("placing a new element in free space", () => {
  const boxOf = (el: DesignElement) => elementBox(el)!;
  const overlapsAny = (el: DesignElement, others: DesignElement[]) => others.some((o) => boxesOverlap(boxOf(el), boxOf(o)));

  it("keeps the default spot when it is free", () => {
    expect(placeInFreeSpace(qr, [text], A4_LANDSCAPE)).toEqual(qr);
  });

  it("puts a second QR code next to the first, not on top of it", () => {
    const second = placeInFreeSpace(newElement("qr", A4_LANDSCAPE), [qr], A4_LANDSCAPE, qr);
    expect(overlapsAny(second, [qr])).toBe(false);
    expect(accepted([qr, second])).toBe(true);
    // Near where QR codes go (bottom right), not across the canvas.
    expect(boxOf(second).x).toBeGreaterThan(A4_LANDSCAPE.width / 2);
  });

  it("puts each new element of any type where it overlaps nothing while there is room", () => {
    const placed: DesignElement[] = [newElement("border", A4_LANDSCAPE)];
    let last: DesignElement | null = null;
    for (const type of ["text", "text", "rect", "qr", "qr", "line", "text", "rect", "qr"] as const) {
      const el = placeInFreeSpace(newElement(type, A4_LANDSCAPE), placed, A4_LANDSCAPE, last);
      expect(
        overlapsAny(
          el,
          placed.filter((p) => p.type !== "border"),
        ),
        type,
      ).toBe(false);
      placed.push(el);
      last = el;
    }
    expect(accepted(placed)).toBe(true);
  });

  it("prefers the spot just below the last element added", () => {
    const first = newElement("text", A4_LANDSCAPE);
    const second = placeInFreeSpace(newElement("text", A4_LANDSCAPE), [first], A4_LANDSCAPE, first);
    const a = boxOf(first);
    expect(boxOf(second)).toMatchObject({ x: a.x, y: a.y + a.height + PLACEMENT_GAP });
  });

  it("with no free spot left, offsets from the last added element so nothing sits exactly on another", () => {
    const filler = {
      ...newElement("rect", A4_LANDSCAPE),
      x: 0,
      y: 0,
      width: A4_LANDSCAPE.width,
      height: A4_LANDSCAPE.height,
    } as DesignElement;
    const existing: DesignElement[] = [filler, qr];
    const next = placeInFreeSpace(newElement("qr", A4_LANDSCAPE), existing, A4_LANDSCAPE, qr);
    expect(boxOf(next)).not.toMatchObject({ x: qr.x, y: qr.y });
    const third = placeInFreeSpace(newElement("qr", A4_LANDSCAPE), [...existing, next], A4_LANDSCAPE, next);
    for (const other of [qr, next]) expect(boxOf(third)).not.toMatchObject({ x: boxOf(other).x, y: boxOf(other).y });
    expect(accepted([...existing, next, third])).toBe(true);
  });

  it("leaves a border (it has no box) where it is", () => {
    const border = newElement("border", A4_LANDSCAPE);
    expect(placeInFreeSpace(border, [border], A4_LANDSCAPE)).toEqual(border);
  });
});

describe("align", () => {
  const a = { ...newElement("rect", A4_LANDSCAPE), x: 100, y: 50, width: 100, height: 40 } as DesignElement;
  const b = { ...newElement("rect", A4_LANDSCAPE), x: 300, y: 200, width: 50, height: 100 } as DesignElement;
  const c = { ...qr, x: 500, y: 120, size: 80 } as DesignElement;
  const all = [a, b, c];

  it("lines the selection up on the selection's edges and centres", () => {
    const boxes = (edge: AlignEdge) => alignElements(all, [0, 1, 2], edge, A4_LANDSCAPE).map((el) => elementBox(el)!);
    expect(boxes("left").map((bx) => bx.x)).toEqual([100, 100, 100]);
    expect(boxes("right").map((bx) => bx.x + bx.width)).toEqual([580, 580, 580]);
    expect(boxes("center").map((bx) => bx.x + bx.width / 2)).toEqual([340, 340, 340]);
    expect(boxes("top").map((bx) => bx.y)).toEqual([50, 50, 50]);
    expect(boxes("bottom").map((bx) => bx.y + bx.height)).toEqual([300, 300, 300]);
    expect(boxes("middle").map((bx) => bx.y + bx.height / 2)).toEqual([175, 175, 175]);
  });

  it("moves only the selected elements; one selected element aligns to the canvas", () => {
    const moved = alignElements(all, [1], "right", A4_LANDSCAPE);
    expect(moved[0]).toBe(a);
    expect(moved[2]).toBe(c);
    expect(elementBox(moved[1]!)!.x + 50).toBe(A4_LANDSCAPE.width);
    expect(elementBox(alignElements(all, [2], "middle", A4_LANDSCAPE)[2]!)!.y).toBeCloseTo((595 - 80) / 2, 1);
  });

  it("aligns a line by its box and leaves borders alone", () => {
    const border = newElement("border", A4_LANDSCAPE);
    const moved = alignElements([border, line, a], [0, 1, 2], "left", A4_LANDSCAPE);
    expect(moved[0]).toBe(border);
    expect(elementBox(moved[1]!)!.x).toBe(100);
  });
});

describe("distribute", () => {
  const at = (x: number, y: number, width: number, height = 20) =>
    ({ ...newElement("rect", A4_LANDSCAPE), x, y, width, height }) as DesignElement;

  it("spreads three or more elements with equal gaps, first and last staying", () => {
    const els = [at(400, 10, 40), at(50, 10, 20), at(700, 10, 100), at(120, 10, 60)];
    const moved = distributeElements(els, [0, 1, 2, 3], "horizontal", A4_LANDSCAPE).map((el) => elementBox(el)!);
    const order = [...moved].sort((p, q) => p.x - q.x);
    const gaps = order.slice(1).map((bx, i) => bx.x - (order[i]!.x + order[i]!.width));
    for (const g of gaps) expect(g).toBeCloseTo(gaps[0]!, 0);
    expect(gaps[0]).toBeCloseTo((800 - 50 - 220) / 3, 0);
    expect(moved[1]!.x).toBe(50);
    expect(moved[2]!.x).toBe(700);
    // The order along the axis is kept.
    expect(order.map((bx) => bx.width)).toEqual([20, 60, 40, 100]);
  });

  it("works vertically and does nothing for fewer than three", () => {
    const els = [at(10, 10, 20, 30), at(10, 400, 20, 30), at(10, 100, 20, 90)];
    const moved = distributeElements(els, [0, 1, 2], "vertical", A4_LANDSCAPE).map((el) => elementBox(el)!);
    expect(moved[2]!.y - 40).toBeCloseTo(400 - (moved[2]!.y + 90), 0);
    expect(distributeElements(els, [0, 1], "vertical", A4_LANDSCAPE)).toEqual(els);
  });
});
