"use client";
// The editor's keyboard shortcuts (key-commands.ts says which key does what). The listener is
// attached once; it reaches the latest render's actions through an Effect Event, so it neither
// re-subscribes on every render nor acts on a stale selection.
import { useEffect, useEffectEvent } from "react";
import type { AlignEdge, Axis } from "./geometry";
import { commandForKey } from "./key-commands";

export type EditorKeyActions = {
  save: () => void;
  undo: () => void;
  redo: () => void;
  selectAll: () => void;
  /** What the keys do to the selected elements; null when none is selected. */
  selection: {
    /** How many are selected. */
    size: number;
    remove: () => void;
    duplicate: () => void;
    deselect: () => void;
    nudge: (dx: number, dy: number) => void;
    align: (edge: AlignEdge) => void;
    distribute: (axis: Axis) => void;
  } | null;
};

// Keys belong to the field when one takes text (or arrows, like a select); checkboxes and colour
// pickers do not, so Delete and Ctrl+Z still act on the design after using them.
const TAKES_KEYS = "textarea, select, [contenteditable], input:not([type=checkbox]):not([type=radio]):not([type=color]):not([type=file])";

export function useEditorKeys(actions: EditorKeyActions) {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    const typing = event.target instanceof HTMLElement && event.target.closest(TAKES_KEYS) !== null;
    const { selection } = actions;
    const command = commandForKey(event, { typing, hasSelection: selection !== null, selectionSize: selection?.size ?? 0 });
    if (!command) return;
    // Escape only deselects; it is not taken from the browser (open pickers and menus close on it too).
    if (command.kind !== "deselect") event.preventDefault();
    switch (command.kind) {
      case "save":
        return actions.save();
      case "undo":
        return actions.undo();
      case "redo":
        return actions.redo();
      case "remove":
        return selection?.remove();
      case "duplicate":
        return selection?.duplicate();
      case "deselect":
        return selection?.deselect();
      case "nudge":
        return selection?.nudge(command.dx, command.dy);
      case "selectAll":
        return actions.selectAll();
      case "align":
        return selection?.align(command.edge);
      case "distribute":
        return selection?.distribute(command.axis);
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);
}
