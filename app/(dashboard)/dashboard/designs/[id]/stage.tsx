"use client";
// The editor's canvas: the server's rendering of the draft as the picture, and over it one outline
// per element that can be selected, dragged and resized. The outlines move at once; the picture
// follows when the debounced preview comes back. No second renderer runs in the browser.
import { useRef, useState } from "react";
import type { DesignElement } from "@/lib/render/document";
import {
  BOX_HANDLES,
  boundsOf,
  boxesOverlap,
  elementBox,
  elementLabel,
  moveElement,
  moveLineEnd,
  resizeElement,
  SQUARE_HANDLES,
  type Box,
  type Handle,
  type Size,
} from "./geometry";
import styles from "./editor.module.css";

type Gesture = { kind: "move" } | { kind: "resize"; handle: Handle } | { kind: "end"; end: 1 | 2 };

type Props = {
  canvas: Size;
  elements: DesignElement[];
  /** The selected elements' indices (several after Shift+click or a marquee). */
  selected: ReadonlySet<number>;
  previewSrc: string;
  previewAlt: string;
  rendering: boolean;
  invalid: ReadonlySet<number>;
  /** Texts that do not fit their box with the sample values: outlined in warning colours. */
  overflowing: ReadonlySet<number>;
  /** `additive`: Shift was held, the element joins (or leaves) the selection. */
  onSelect: (index: number | null, additive: boolean) => void;
  /** A marquee was drawn: the elements it touches. */
  onSelectMany: (indices: number[], additive: boolean) => void;
  /** A drag began: the editor records one undo step for the whole gesture. */
  onGestureStart: () => void;
  /** Elements moved or resized by a gesture, by index. */
  onElementsChange: (changes: ReadonlyMap<number, DesignElement>) => void;
};

const pct = (v: number, of: number) => `${(v / of) * 100}%`;
/** Pointer travel (pixels) below which a press is a click, not a drag. */
const CLICK_SLOP = 3;

export function Stage({
  canvas,
  elements,
  selected,
  previewSrc,
  previewAlt,
  rendering,
  invalid,
  overflowing,
  onSelect,
  onSelectMany,
  onGestureStart,
  onElementsChange,
}: Props) {
  const stageRef = useRef<HTMLDivElement>(null);
  /** The marquee being drawn, in points. */
  const [marquee, setMarquee] = useState<Box | null>(null);

  /** Follows the pointer from `event` until release, turning screen pixels into points. */
  function startGesture(event: React.PointerEvent, index: number, gesture: Gesture) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.shiftKey) {
      // Shift+click adds the element to the selection or takes it out; it does not drag.
      onSelect(index, true);
      return;
    }
    // Dragging one of several selected elements moves them all; anything else selects the element.
    const group = gesture.kind === "move" && selected.has(index) && selected.size > 1 ? [...selected] : [index];
    if (group.length === 1) onSelect(index, false);
    // preventDefault keeps the browser from moving focus; move it ourselves, so keys act on this
    // element and an inspector field being edited lets go of its value before the drag changes it.
    const focusable = (event.currentTarget as HTMLElement).closest("button");
    if (focusable) focusable.focus({ preventScroll: true });
    else (document.activeElement as HTMLElement | null)?.blur();
    const stage = stageRef.current;
    if (!stage) return;
    const rect = stage.getBoundingClientRect();
    const scale = canvas.width / rect.width;
    const start = elements[index]!;
    const starts = new Map(group.map((i) => [i, elements[i]!]));
    // The group moves as one: it stops where its bounds meet the canvas's edge, so its shape holds.
    const groupBounds = boundsOf(group.map((i) => elementBox(elements[i]!)).filter((b): b is Box => b !== null));
    const originX = event.clientX;
    const originY = event.clientY;
    const target = event.currentTarget as HTMLElement;
    target.setPointerCapture(event.pointerId);
    let began = false;
    const onMove = (e: PointerEvent) => {
      const dx = (e.clientX - originX) * scale;
      const dy = (e.clientY - originY) * scale;
      // A click that wobbles a pixel is still a click, not a move.
      if (!began && Math.abs(e.clientX - originX) + Math.abs(e.clientY - originY) < CLICK_SLOP) return;
      if (!began) {
        began = true;
        onGestureStart();
      }
      if (group.length > 1 && groupBounds) {
        const gx = Math.min(Math.max(dx, -groupBounds.x), canvas.width - groupBounds.x - groupBounds.width);
        const gy = Math.min(Math.max(dy, -groupBounds.y), canvas.height - groupBounds.y - groupBounds.height);
        onElementsChange(new Map([...starts].map(([i, el]) => [i, moveElement(el, gx, gy, canvas)])));
        return;
      }
      const next =
        gesture.kind === "move"
          ? moveElement(start, dx, dy, canvas)
          : gesture.kind === "resize"
            ? resizeElement(start, gesture.handle, dx, dy, canvas)
            : start.type === "line"
              ? moveLineEnd(start, gesture.end, dx, dy, canvas)
              : start;
      onElementsChange(new Map([[index, next]]));
    };
    const onUp = () => {
      target.removeEventListener("pointermove", onMove);
      target.removeEventListener("pointerup", onUp);
      target.removeEventListener("pointercancel", onUp);
      // A click (no drag) on one of several selected elements selects it alone.
      if (!began && group.length > 1) onSelect(index, false);
    };
    target.addEventListener("pointermove", onMove);
    target.addEventListener("pointerup", onUp);
    target.addEventListener("pointercancel", onUp);
  }

  /**
   * A press on the empty canvas: a click clears the selection (Shift keeps it); a drag draws a
   * marquee that selects every element it touches (with Shift, adds them).
   */
  function startMarquee(event: React.PointerEvent) {
    if (event.button !== 0) return;
    const stage = stageRef.current;
    if (!stage) return;
    event.preventDefault();
    const rect = stage.getBoundingClientRect();
    const scale = canvas.width / rect.width;
    const toCanvas = (clientX: number, clientY: number) => ({
      x: Math.min(Math.max((clientX - rect.left) * scale, 0), canvas.width),
      y: Math.min(Math.max((clientY - rect.top) * scale, 0), canvas.height),
    });
    const origin = toCanvas(event.clientX, event.clientY);
    const additive = event.shiftKey;
    const target = event.currentTarget as HTMLElement;
    target.setPointerCapture(event.pointerId);
    let box: Box | null = null;
    const onMove = (e: PointerEvent) => {
      if (!box && Math.abs(e.clientX - event.clientX) + Math.abs(e.clientY - event.clientY) < CLICK_SLOP) return;
      const at = toCanvas(e.clientX, e.clientY);
      box = {
        x: Math.min(origin.x, at.x),
        y: Math.min(origin.y, at.y),
        width: Math.abs(at.x - origin.x),
        height: Math.abs(at.y - origin.y),
      };
      setMarquee(box);
    };
    const onUp = () => {
      target.removeEventListener("pointermove", onMove);
      target.removeEventListener("pointerup", onUp);
      target.removeEventListener("pointercancel", onUp);
      setMarquee(null);
      if (!box) {
        if (!additive) onSelect(null, false);
        return;
      }
      const area = box;
      const touched = elements.flatMap((el, i) => {
        const b = elementBox(el);
        return b && boxesOverlap(b, area) ? [i] : [];
      });
      onSelectMany(touched, additive);
    };
    target.addEventListener("pointermove", onMove);
    target.addEventListener("pointerup", onUp);
    target.addEventListener("pointercancel", onUp);
  }

  return (
    <div
      ref={stageRef}
      className={styles.stage}
      style={{ aspectRatio: `${canvas.width} / ${canvas.height}`, width: `min(100%, calc(78vh * ${canvas.width / canvas.height}))` }}
      onPointerDown={(e) => {
        if (e.target === e.currentTarget || (e.target as HTMLElement).dataset.backdrop) startMarquee(e);
      }}
      data-testid="design-stage"
    >
      <img className={styles.picture} src={previewSrc} alt={previewAlt} data-backdrop="1" draggable={false} />
      {rendering && <span className={styles.rendering}>Rendering…</span>}
      {marquee && (
        <div
          className={styles.marquee}
          data-testid="marquee"
          style={{
            left: pct(marquee.x, canvas.width),
            top: pct(marquee.y, canvas.height),
            width: pct(marquee.width, canvas.width),
            height: pct(marquee.height, canvas.height),
          }}
          aria-hidden
        />
      )}
      {/* eslint-disable-next-line react-hooks/refs -- the stage ref is read only by the pointer handlers made here, not during render */}
      {elements.map((el, index) => {
        const isSelected = selected.has(index);
        // Handles only when one element is selected: resizing applies to one at a time.
        const showHandles = isSelected && selected.size === 1;
        const marks = `${isSelected ? styles.selected : ""} ${invalid.has(index) ? styles.invalid : overflowing.has(index) ? styles.overflowing : ""}`;
        if (el.type === "border") {
          return isSelected ? (
            <div
              key={index}
              className={`${styles.box} ${styles.selected} ${styles.frame}`}
              style={{ inset: pct(el.inset, canvas.width) }}
              aria-hidden
            />
          ) : null;
        }
        const box = elementBox(el)!;
        const label = elementLabel(el);
        if (el.type === "line") {
          // A thin hit area along the line's bounding box, with a handle at each end.
          const pad = 4;
          return (
            <div key={index}>
              <button
                type="button"
                aria-label={label}
                aria-pressed={isSelected}
                className={`${styles.box} ${marks}`}
                style={{
                  left: `calc(${pct(box.x, canvas.width)} - ${pad}px)`,
                  top: `calc(${pct(box.y, canvas.height)} - ${pad}px)`,
                  width: `calc(${pct(box.width, canvas.width)} + ${2 * pad}px)`,
                  height: `calc(${pct(box.height, canvas.height)} + ${2 * pad}px)`,
                }}
                tabIndex={isSelected ? 0 : -1}
                onPointerDown={(e) => startGesture(e, index, { kind: "move" })}
              />
              {showHandles &&
                ([1, 2] as const).map((end) => (
                  <span
                    key={end}
                    role="presentation"
                    data-handle={`end${end}`}
                    className={`${styles.handle} ${styles.endHandle}`}
                    style={{ left: pct(end === 1 ? el.x1 : el.x2, canvas.width), top: pct(end === 1 ? el.y1 : el.y2, canvas.height) }}
                    onPointerDown={(e) => startGesture(e, index, { kind: "end", end })}
                  />
                ))}
            </div>
          );
        }
        const handles = el.type === "qr" ? SQUARE_HANDLES : BOX_HANDLES;
        return (
          <button
            type="button"
            key={index}
            aria-label={label}
            aria-pressed={isSelected}
            className={`${styles.box} ${marks}`}
            data-overflowing={overflowing.has(index) ? "true" : undefined}
            style={{
              left: pct(box.x, canvas.width),
              top: pct(box.y, canvas.height),
              width: pct(box.width, canvas.width),
              height: pct(box.height, canvas.height),
            }}
            // One tab stop for the canvas (the selected element); the layer list selects the others.
            tabIndex={isSelected ? 0 : -1}
            onPointerDown={(e) => startGesture(e, index, { kind: "move" })}
          >
            {showHandles &&
              handles.map((h) => (
                <span
                  key={h}
                  role="presentation"
                  data-handle={h}
                  className={`${styles.handle} ${styles[`h_${h}`]}`}
                  onPointerDown={(e) => startGesture(e, index, { kind: "resize", handle: h })}
                />
              ))}
          </button>
        );
      })}
    </div>
  );
}
