"use client";
// Above the canvas: align the selected elements (to each other, or one to the canvas) and distribute
// three or more with equal gaps. Each button names its action for screen readers and shows its
// shortcut (key-commands.ts); geometry.ts does the arithmetic, the editor makes it one undo step.
import type { AlignEdge, Axis } from "./geometry";
import { ALIGN_KEYS, arrangeShortcut, DISTRIBUTE_KEYS, DISTRIBUTE_MIN } from "./key-commands";
import styles from "./editor.module.css";

const ALIGN_BUTTONS: { edge: AlignEdge; label: string; icon: string }[] = [
  { edge: "left", label: "Align left", icon: "⇤" },
  { edge: "center", label: "Align centre", icon: "↔" },
  { edge: "right", label: "Align right", icon: "⇥" },
  { edge: "top", label: "Align top", icon: "⤒" },
  { edge: "middle", label: "Align middle", icon: "↕" },
  { edge: "bottom", label: "Align bottom", icon: "⤓" },
];
const DISTRIBUTE_BUTTONS: { axis: Axis; label: string; icon: string }[] = [
  { axis: "horizontal", label: "Distribute horizontally", icon: "⋯" },
  { axis: "vertical", label: "Distribute vertically", icon: "⋮" },
];

const letterFor = <T extends string>(keys: Readonly<Record<string, T>>, value: T) => Object.keys(keys).find((k) => keys[k] === value)!;

export function ArrangeToolbar({
  selected,
  onAlign,
  onDistribute,
}: {
  /** How many elements are selected. */
  selected: number;
  onAlign: (edge: AlignEdge) => void;
  onDistribute: (axis: Axis) => void;
}) {
  const to = selected === 1 ? "to the canvas" : "to the selection";
  return (
    <div className={styles.arrange} role="toolbar" aria-label="Align and distribute">
      <span className={styles.arrangeLabel} aria-live="polite">
        {selected === 0 ? "Select elements to align" : selected === 1 ? "Align to the canvas:" : `Align ${selected} elements:`}
      </span>
      <div role="group" aria-label="Align">
        {ALIGN_BUTTONS.map(({ edge, label, icon }) => (
          <button
            key={edge}
            type="button"
            className={styles.small}
            aria-label={label}
            title={`${label} ${to} (${arrangeShortcut(letterFor(ALIGN_KEYS, edge))})`}
            aria-keyshortcuts={`Alt+Shift+${letterFor(ALIGN_KEYS, edge)}`}
            disabled={selected === 0}
            onClick={() => onAlign(edge)}
          >
            <span aria-hidden>{icon}</span>
          </button>
        ))}
      </div>
      <div role="group" aria-label="Distribute">
        {DISTRIBUTE_BUTTONS.map(({ axis, label, icon }) => (
          <button
            key={axis}
            type="button"
            className={styles.small}
            aria-label={label}
            title={`${label}: equal gaps between ${DISTRIBUTE_MIN} or more elements (${arrangeShortcut(letterFor(DISTRIBUTE_KEYS, axis))})`}
            aria-keyshortcuts={`Alt+Shift+${letterFor(DISTRIBUTE_KEYS, axis)}`}
            disabled={selected < DISTRIBUTE_MIN}
            onClick={() => onDistribute(axis)}
          >
            <span aria-hidden>{icon}</span>
          </button>
        ))}
      </div>
    </div>
  );
}
