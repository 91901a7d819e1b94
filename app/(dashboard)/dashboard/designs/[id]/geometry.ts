// The design editor's geometry, kept pure so it can be tested without a browser: where an element
// sits, how a drag moves or resizes it, and how a layout follows a change of canvas. Every result
// stays inside the canvas, so dragging can never produce a document the server would refuse.
import { BADGE_SIZE, canvasSize, type DesignDocument, type DesignElement } from "@/lib/render/document";

export type Size = { width: number; height: number };
export type Box = { x: number; y: number; width: number; height: number };
export type Handle = "nw" | "n" | "ne" | "e" | "se" | "s" | "sw" | "w";
export type ElementType = DesignElement["type"];

export const BOX_HANDLES: readonly Handle[] = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];
export const SQUARE_HANDLES: readonly Handle[] = ["nw", "ne", "se", "sw"];
/** The smallest box a drag can make (points); a QR code has its own minimum, the schema's. */
export const MIN_BOX = 8;
export const MIN_QR = 24;

/** Points are kept to one decimal: finer than anyone can see, coarse enough to read in the inspector. */
export const round = (v: number) => Math.round(v * 10) / 10;
const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

export function canvasOf(doc: Pick<DesignDocument, "canvas">): Size {
  return canvasSize(doc.canvas);
}

/** The element's bounding box in points; a border frames the whole canvas and has none. */
export function elementBox(el: DesignElement): Box | null {
  switch (el.type) {
    case "border":
      return null;
    case "qr":
      return { x: el.x, y: el.y, width: el.size, height: el.size };
    case "line":
      return { x: Math.min(el.x1, el.x2), y: Math.min(el.y1, el.y2), width: Math.abs(el.x2 - el.x1), height: Math.abs(el.y2 - el.y1) };
    default:
      return { x: el.x, y: el.y, width: el.width, height: el.height };
  }
}

/** `start` moved by (dx, dy) points, stopped at the canvas's edges. */
export function moveElement(start: DesignElement, dx: number, dy: number, canvas: Size): DesignElement {
  const box = elementBox(start);
  if (!box) return start;
  const nx = round(clamp(box.x + dx, 0, canvas.width - box.width));
  const ny = round(clamp(box.y + dy, 0, canvas.height - box.height));
  const mx = nx - box.x;
  const my = ny - box.y;
  if (start.type === "line")
    return { ...start, x1: round(start.x1 + mx), y1: round(start.y1 + my), x2: round(start.x2 + mx), y2: round(start.y2 + my) };
  if (start.type === "border") return start;
  return { ...start, x: nx, y: ny };
}

/** `start` resized by dragging `handle` by (dx, dy) points. A QR code stays square. */
export function resizeElement(start: DesignElement, handle: Handle, dx: number, dy: number, canvas: Size): DesignElement {
  if (start.type === "line" || start.type === "border") return start;
  if (start.type === "qr") return resizeSquare(start, handle, dx, dy, canvas);
  let { x, y, width, height } = start;
  const right = x + width;
  const bottom = y + height;
  if (handle.includes("e")) width = clamp(width + dx, MIN_BOX, canvas.width - x);
  if (handle.includes("s")) height = clamp(height + dy, MIN_BOX, canvas.height - y);
  if (handle.includes("w")) {
    x = clamp(x + dx, 0, right - MIN_BOX);
    width = right - x;
  }
  if (handle.includes("n")) {
    y = clamp(y + dy, 0, bottom - MIN_BOX);
    height = bottom - y;
  }
  return { ...start, x: round(x), y: round(y), width: round(width), height: round(height) };
}

function resizeSquare(start: Extract<DesignElement, { type: "qr" }>, handle: Handle, dx: number, dy: number, canvas: Size) {
  // The opposite corner stays put; the size follows the drag's average along the handle's diagonal.
  const sx = handle.includes("e") ? 1 : -1;
  const sy = handle.includes("s") ? 1 : -1;
  const anchorX = sx > 0 ? start.x : start.x + start.size;
  const anchorY = sy > 0 ? start.y : start.y + start.size;
  const room = Math.min(sx > 0 ? canvas.width - anchorX : anchorX, sy > 0 ? canvas.height - anchorY : anchorY);
  const size = round(clamp(start.size + (sx * dx + sy * dy) / 2, MIN_QR, Math.min(room, 1000)));
  return { ...start, size, x: round(sx > 0 ? anchorX : anchorX - size), y: round(sy > 0 ? anchorY : anchorY - size) };
}

/** A line with one end dragged by (dx, dy) points. */
export function moveLineEnd(
  start: Extract<DesignElement, { type: "line" }>,
  end: 1 | 2,
  dx: number,
  dy: number,
  canvas: Size,
): DesignElement {
  const x = round(clamp((end === 1 ? start.x1 : start.x2) + dx, 0, canvas.width));
  const y = round(clamp((end === 1 ? start.y1 : start.y2) + dy, 0, canvas.height));
  return end === 1 ? { ...start, x1: x, y1: y } : { ...start, x2: x, y2: y };
}

/** The element centred on the canvas along one axis. */
export function centerElement(el: DesignElement, axis: "x" | "y", canvas: Size): DesignElement {
  const box = elementBox(el);
  if (!box) return el;
  const target = axis === "x" ? (canvas.width - box.width) / 2 : (canvas.height - box.height) / 2;
  return moveElement(el, axis === "x" ? target - box.x : 0, axis === "y" ? target - box.y : 0, canvas);
}

/**
 * The layout carried over to another canvas (A4 ↔ Letter, landscape ↔ portrait): positions follow
 * each axis, sizes of type, strokes and QR codes the smaller factor, so nothing distorts or falls off.
 */
export function scaleToCanvas(elements: DesignElement[], from: Size, to: Size): DesignElement[] {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  const s = Math.min(sx, sy);
  const fit = (v: number, lo: number, hi: number) => round(clamp(v, lo, hi));
  return elements.map((el): DesignElement => {
    switch (el.type) {
      case "border":
        return { ...el, inset: fit(el.inset * s, 0, 200), thickness: fit(el.thickness * s, 0.1, 100), radius: fit(el.radius * s, 0, 200) };
      case "line":
        return {
          ...el,
          x1: fit(el.x1 * sx, 0, to.width),
          y1: fit(el.y1 * sy, 0, to.height),
          x2: fit(el.x2 * sx, 0, to.width),
          y2: fit(el.y2 * sy, 0, to.height),
          thickness: fit(el.thickness * s, 0.1, 50),
        };
      case "qr": {
        const size = fit(el.size * s, MIN_QR, Math.min(to.width, to.height));
        return { ...el, size, x: fit(el.x * sx, 0, to.width - size), y: fit(el.y * sy, 0, to.height - size) };
      }
      default: {
        const width = fit(el.width * sx, MIN_BOX, to.width);
        const height = fit(el.height * sy, MIN_BOX, to.height);
        const box = { ...el, x: fit(el.x * sx, 0, to.width - width), y: fit(el.y * sy, 0, to.height - height), width, height };
        if (box.type === "text") {
          return { ...box, font: { ...box.font, size: fit(box.font.size * s, 4, 300) }, minSize: fit(box.minSize * s, 4, 300) };
        }
        if (box.type === "rect") return { ...box, strokeWidth: fit(box.strokeWidth * s, 0, 100), radius: fit(box.radius * s, 0, 1000) };
        return box;
      }
    }
  });
}

/** A new element of `type`, centred, with the schema's defaults spelled out so the inspector shows them. */
export function newElement(type: ElementType, canvas: Size, image?: { asset: string; width: number; height: number }): DesignElement {
  const cx = canvas.width / 2;
  const cy = canvas.height / 2;
  switch (type) {
    case "text": {
      const width = round(Math.min(320, canvas.width - 40));
      return {
        type: "text",
        x: round(cx - width / 2),
        y: round(cy - 20),
        width,
        height: 40,
        text: "New text",
        font: { family: "Inter", weight: 400, size: 24, color: "#111111", letterSpacing: 0, lineHeight: 1.2 },
        align: "center",
        verticalAlign: "middle",
        uppercase: false,
        shrinkToFit: true,
        minSize: 8,
        maxLines: 1,
      };
    }
    case "image": {
      if (!image) throw new Error("an image element needs an uploaded image");
      const width = round(Math.min(160, canvas.width * 0.3, image.width));
      const height = round(Math.max(MIN_BOX, Math.min(canvas.height * 0.6, (width * image.height) / image.width)));
      return {
        type: "image",
        x: round(cx - width / 2),
        y: round(cy - height / 2),
        width,
        height,
        asset: image.asset,
        fit: "contain",
        opacity: 1,
      };
    }
    case "rect":
      return {
        type: "rect",
        x: round(cx - 100),
        y: round(cy - 50),
        width: 200,
        height: 100,
        fill: "#e5e7eb",
        stroke: null,
        strokeWidth: 0,
        radius: 0,
      };
    case "line":
      return { type: "line", x1: round(cx - 100), y1: round(cy), x2: round(cx + 100), y2: round(cy), color: "#111111", thickness: 1 };
    case "border":
      return { type: "border", inset: 16, thickness: 4, color: "#111111", style: "solid", radius: 0 };
    case "qr": {
      const size = canvas.width === BADGE_SIZE && canvas.height === BADGE_SIZE ? 72 : 80;
      return {
        type: "qr",
        x: round(canvas.width - size - 40),
        y: round(canvas.height - size - 40),
        size,
        color: "#111111",
        background: "#ffffff",
      };
    }
  }
}

/** The element shifted a little, for "duplicate" (stays on the canvas). */
export function duplicateElement(el: DesignElement, canvas: Size): DesignElement {
  const copy = { ...el, id: undefined };
  delete copy.id;
  return moveElement(copy, 12, 12, canvas);
}

export const ELEMENT_NAMES: Record<ElementType, string> = {
  text: "Text",
  image: "Image",
  rect: "Rectangle",
  line: "Line",
  border: "Border",
  qr: "QR code",
};

/** How the element is called in the layer list and in screen-reader labels. */
export function elementLabel(el: DesignElement): string {
  if (el.type === "text") {
    const words = el.text.replace(/\s+/g, " ").trim();
    return `Text: ${words.length > 32 ? `${words.slice(0, 31)}…` : words || "(empty)"}`;
  }
  if (el.type === "image") return `Image: ${el.asset}`;
  return ELEMENT_NAMES[el.type];
}
