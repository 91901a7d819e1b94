"use client";
// The editor's canvas: the server's rendering of the draft as the picture, and over it one outline
// per element that can be selected, dragged and resized. The outlines move at once; the picture
// follows when the debounced preview comes back. No second renderer runs in the browser.
import { useRef } from "react";
import type { DesignElement } from "@/lib/render/document";
import {
  BOX_HANDLES,
  elementBox,
  elementLabel,
  moveElement,
  moveLineEnd,
  resizeElement,
  SQUARE_HANDLES,
  type Handle,
  type Size,
} from "./geometry";
import styles from "./editor.module.css";

type Gesture = { kind: "move" } | { kind: "resize"; handle: Handle } | { kind: "end"; end: 1 | 2 };

type Props = {
  canvas: Size;
  elements: DesignElement[];
  selected: number | null;
  previewSrc: string;
  previewAlt: string;
  rendering: boolean;
  invalid: ReadonlySet<number>;
  onSelect: (index: number | null) => void;
  /** A drag began: the editor records one undo step for the whole gesture. */
  onGestureStart: () => void;
  onElementChange: (index: number, element: DesignElement) => void;
};

const pct = (v: number, of: number) => `${(v / of) * 100}%`;

export function Stage({
  canvas,
  elements,
  selected,
  previewSrc,
  previewAlt,
  rendering,
  invalid,
  onSelect,
  onGestureStart,
  onElementChange,
}: Props) {
  const stageRef = useRef<HTMLDivElement>(null);

  /** Follows the pointer from `event` until release, turning screen pixels into points. */
  function startGesture(event: React.PointerEvent, index: number, gesture: Gesture) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    onSelect(index);
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
    const originX = event.clientX;
    const originY = event.clientY;
    const target = event.currentTarget as HTMLElement;
    target.setPointerCapture(event.pointerId);
    let began = false;
    const onMove = (e: PointerEvent) => {
      const dx = (e.clientX - originX) * scale;
      const dy = (e.clientY - originY) * scale;
      // A click that wobbles a pixel is still a click, not a move.
      if (!began && Math.abs(e.clientX - originX) + Math.abs(e.clientY - originY) < 3) return;
      if (!began) {
        began = true;
        onGestureStart();
      }
      const next =
        gesture.kind === "move"
          ? moveElement(start, dx, dy, canvas)
          : gesture.kind === "resize"
            ? resizeElement(start, gesture.handle, dx, dy, canvas)
            : start.type === "line"
              ? moveLineEnd(start, gesture.end, dx, dy, canvas)
              : start;
      onElementChange(index, next);
    };
    const onUp = () => {
      target.removeEventListener("pointermove", onMove);
      target.removeEventListener("pointerup", onUp);
      target.removeEventListener("pointercancel", onUp);
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
        if (e.target === e.currentTarget || (e.target as HTMLElement).dataset.backdrop) onSelect(null);
      }}
      data-testid="design-stage"
    >
      <img className={styles.picture} src={previewSrc} alt={previewAlt} data-backdrop="1" draggable={false} />
      {rendering && <span className={styles.rendering}>Rendering…</span>}
      {/* eslint-disable-next-line react-hooks/refs -- the stage ref is read only by the pointer handlers made here, not during render */}
      {elements.map((el, index) => {
        const isSelected = index === selected;
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
                className={`${styles.box} ${isSelected ? styles.selected : ""} ${invalid.has(index) ? styles.invalid : ""}`}
                style={{
                  left: `calc(${pct(box.x, canvas.width)} - ${pad}px)`,
                  top: `calc(${pct(box.y, canvas.height)} - ${pad}px)`,
                  width: `calc(${pct(box.width, canvas.width)} + ${2 * pad}px)`,
                  height: `calc(${pct(box.height, canvas.height)} + ${2 * pad}px)`,
                }}
                tabIndex={isSelected ? 0 : -1}
                onPointerDown={(e) => startGesture(e, index, { kind: "move" })}
              />
              {isSelected &&
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
            className={`${styles.box} ${isSelected ? styles.selected : ""} ${invalid.has(index) ? styles.invalid : ""}`}
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
            {isSelected &&
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
