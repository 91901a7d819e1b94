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

// ---- Placing a new element: in free space when there is some ------------------------------------

/** Space kept between a placed element and its neighbours, and from the canvas's edge where it fits. */
export const PLACEMENT_GAP = 8;
/** The grid (points) on which free spots are looked for. */
const PLACEMENT_STEP = 8;
/** How far each fallback copy is offset from the last added element when the canvas has no free spot. */
export const CASCADE_OFFSET = 16;

/** Whether two boxes overlap once each is grown by `gap` / 2 (a line's flat box still counts). */
export function boxesOverlap(a: Box, b: Box, gap = 0): boolean {
  return a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;
}

/** The element moved so its box's top left corner is at (x, y). */
function placedAt(el: DesignElement, x: number, y: number, canvas: Size): DesignElement {
  const box = elementBox(el);
  return box ? moveElement(el, x - box.x, y - box.y, canvas) : el;
}

/**
 * Where a new element goes: the first spot, in a sensible order, where it overlaps no element of
 * `existing` (borders frame the canvas and do not count). The order: where the element would go by
 * default (`newElement`'s spot), then just below the last element added, then the canvas's grid from
 * the nearest to the default spot outwards. When no spot is free, the element is offset from the
 * last added one (or from its default spot) until it sits exactly on no other element, so a second
 * QR code never hides the first.
 */
export function placeInFreeSpace(
  el: DesignElement,
  existing: readonly DesignElement[],
  canvas: Size,
  lastAdded?: DesignElement | null,
): DesignElement {
  const box = elementBox(el);
  if (!box) return el;
  const others = existing.map(elementBox).filter((b): b is Box => b !== null);
  const free = (x: number, y: number) =>
    others.every((o) => !boxesOverlap({ x, y, width: box.width, height: box.height }, o, PLACEMENT_GAP));
  const inside = (x: number, y: number) =>
    x >= 0 && y >= 0 && x + box.width <= canvas.width + 0.01 && y + box.height <= canvas.height + 0.01;

  const candidates: { x: number; y: number }[] = [{ x: box.x, y: box.y }];
  const last = lastAdded ? elementBox(lastAdded) : null;
  if (last) candidates.push({ x: last.x, y: last.y + last.height + PLACEMENT_GAP }, { x: last.x + last.width + PLACEMENT_GAP, y: last.y });
  // The grid keeps a margin from the canvas's edge (a border usually sits there) when the element is small enough.
  const edge = 2 * PLACEMENT_GAP;
  const margin = box.width + 2 * edge <= canvas.width && box.height + 2 * edge <= canvas.height ? edge : 0;
  const grid: { x: number; y: number; d: number }[] = [];
  for (let y = margin; y + box.height <= canvas.height - margin; y += PLACEMENT_STEP) {
    for (let x = margin; x + box.width <= canvas.width - margin; x += PLACEMENT_STEP) {
      grid.push({ x, y, d: (x - box.x) ** 2 + (y - box.y) ** 2 });
    }
  }
  grid.sort((a, b) => a.d - b.d);
  for (const c of [...candidates, ...grid]) {
    if (inside(c.x, c.y) && free(c.x, c.y)) return placedAt(el, c.x, c.y, canvas);
  }

  // No free spot: cascade from the last added element, stepping back up-left where the canvas ends.
  const sameSpot = (x: number, y: number) => others.some((o) => Math.abs(o.x - x) < 1 && Math.abs(o.y - y) < 1);
  const from = last ?? box;
  for (let k = 1; k <= 400; k++) {
    for (const [sx, sy] of [
      [1, 1],
      [-1, 1],
      [1, -1],
      [-1, -1],
    ] as const) {
      const x = round(clamp(from.x + sx * k * CASCADE_OFFSET, 0, canvas.width - box.width));
      const y = round(clamp(from.y + sy * k * CASCADE_OFFSET, 0, canvas.height - box.height));
      if (!sameSpot(x, y)) return placedAt(el, x, y, canvas);
    }
  }
  return el;
}

// ---- Align and distribute -------------------------------------------------------------------------

export type AlignEdge = "left" | "center" | "right" | "top" | "middle" | "bottom";
export type Axis = "horizontal" | "vertical";

/** The smallest box around every box given. */
export function boundsOf(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Where a box's edge (or centre) goes to line up with `target`'s, along the edge's axis. */
function alignedOffset(box: Box, target: Box, edge: AlignEdge): { dx: number; dy: number } {
  switch (edge) {
    case "left":
      return { dx: target.x - box.x, dy: 0 };
    case "center":
      return { dx: target.x + target.width / 2 - (box.x + box.width / 2), dy: 0 };
    case "right":
      return { dx: target.x + target.width - (box.x + box.width), dy: 0 };
    case "top":
      return { dx: 0, dy: target.y - box.y };
    case "middle":
      return { dx: 0, dy: target.y + target.height / 2 - (box.y + box.height / 2) };
    case "bottom":
      return { dx: 0, dy: target.y + target.height - (box.y + box.height) };
  }
}

/**
 * The elements with those at `indices` lined up along `edge`: with the selection's bounds when two
 * or more are selected, with the canvas when one is. Borders frame the canvas and do not move.
 */
export function alignElements(
  elements: readonly DesignElement[],
  indices: readonly number[],
  edge: AlignEdge,
  canvas: Size,
): DesignElement[] {
  const chosen = indices.filter((i) => elements[i] && elementBox(elements[i]));
  const target = chosen.length === 1 ? { x: 0, y: 0, ...canvas } : boundsOf(chosen.map((i) => elementBox(elements[i]!)!));
  if (!target || chosen.length === 0) return [...elements];
  const picked = new Set(chosen);
  return elements.map((el, i) => {
    if (!picked.has(i)) return el;
    const { dx, dy } = alignedOffset(elementBox(el)!, target, edge);
    return moveElement(el, dx, dy, canvas);
  });
}

/**
 * The elements with those at `indices` (three or more) spread along `axis` with equal gaps between
 * them: the first and the last (by position) stay, the others move between them in their order.
 */
export function distributeElements(
  elements: readonly DesignElement[],
  indices: readonly number[],
  axis: Axis,
  canvas: Size,
): DesignElement[] {
  const chosen = [...new Set(indices)].filter((i) => elements[i] && elementBox(elements[i]));
  if (chosen.length < 3) return [...elements];
  const start = (b: Box) => (axis === "horizontal" ? b.x : b.y);
  const extent = (b: Box) => (axis === "horizontal" ? b.width : b.height);
  const order = chosen
    .map((i) => ({ i, box: elementBox(elements[i]!)! }))
    .sort((a, b) => start(a.box) + extent(a.box) / 2 - (start(b.box) + extent(b.box) / 2) || a.i - b.i);
  const first = order[0]!.box;
  const lastBox = order[order.length - 1]!.box;
  const span = start(lastBox) + extent(lastBox) - start(first);
  const gap = (span - order.reduce((sum, o) => sum + extent(o.box), 0)) / (order.length - 1);
  const next = [...elements];
  let at = start(first);
  for (const { i, box } of order) {
    const d = at - start(box);
    next[i] = moveElement(elements[i]!, axis === "horizontal" ? d : 0, axis === "vertical" ? d : 0, canvas);
    at += extent(box) + gap;
  }
  return next;
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
