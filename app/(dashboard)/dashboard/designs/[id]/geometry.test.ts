import { describe, expect, it } from "vitest";
import { DesignDocument, type DesignElement } from "@/lib/render/document";
import {
  centerElement,
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
