// The editor's keyboard shortcuts as a plain mapping from a key press to a command, so which key
// does what (and when a field keeps its keys) is tested without a browser. useEditorKeys applies it.
import type { AlignEdge, Axis } from "./geometry";

export type KeyPress = { key: string; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey?: boolean; code?: string };

export type EditorCommand =
  | { kind: "save" }
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "remove" }
  | { kind: "duplicate" }
  | { kind: "deselect" }
  | { kind: "selectAll" }
  | { kind: "nudge"; dx: number; dy: number }
  | { kind: "align"; edge: AlignEdge }
  | { kind: "distribute"; axis: Axis };

/** Points an arrow key moves the selected element; with Shift, ten times as far. */
export const NUDGE = 1;
export const NUDGE_SHIFT = 10;

/**
 * Alt+Shift with these letters aligns the selection (and distributes it, below). Alt+Shift is free
 * in the editor and in the browsers' own shortcuts; the letters are the edges' initials.
 */
export const ALIGN_KEYS: Readonly<Record<string, AlignEdge>> = { L: "left", C: "center", R: "right", T: "top", M: "middle", B: "bottom" };
export const DISTRIBUTE_KEYS: Readonly<Record<string, Axis>> = { H: "horizontal", V: "vertical" };
/** Distributing needs at least this many elements (two are already "evenly spaced"). */
export const DISTRIBUTE_MIN = 3;

/** The label of an arrange shortcut, for titles and the hint under the canvas. */
export const arrangeShortcut = (letter: string) => `Alt+Shift+${letter}`;

/** The letter of a key press: the physical key when known (Alt turns L into "¬" or "Ò" on a Mac). */
function letterOf(press: KeyPress): string {
  const m = /^Key([A-Z])$/.exec(press.code ?? "");
  return m ? m[1]! : press.key.toUpperCase();
}

/**
 * The command for a key press, or null when the editor leaves the key alone. `typing`: focus is in a
 * field that takes text, which keeps every key but Ctrl/Cmd+S. `hasSelection`: an element is selected,
 * which the element commands (delete, duplicate, Escape, arrows, align) need; `selectionSize`: how
 * many are (distribute needs three).
 */
export function commandForKey(
  press: KeyPress,
  context: { typing: boolean; hasSelection: boolean; selectionSize?: number },
): EditorCommand | null {
  const mod = press.metaKey || press.ctrlKey;
  const letter = press.key.toLowerCase();
  if (mod && letter === "s") return { kind: "save" };
  if (context.typing) return null;
  if (mod && letter === "z") return { kind: press.shiftKey ? "redo" : "undo" };
  if (mod && letter === "y") return { kind: "redo" };
  if (mod && letter === "a") return { kind: "selectAll" };
  if (!context.hasSelection) return null;
  if (press.altKey && press.shiftKey && !mod) {
    const edge = ALIGN_KEYS[letterOf(press)];
    if (edge) return { kind: "align", edge };
    const axis = DISTRIBUTE_KEYS[letterOf(press)];
    if (axis && (context.selectionSize ?? 1) >= DISTRIBUTE_MIN) return { kind: "distribute", axis };
    return null;
  }
  if (press.key === "Delete" || press.key === "Backspace") return { kind: "remove" };
  if (mod && letter === "d") return { kind: "duplicate" };
  if (press.key === "Escape") return { kind: "deselect" };
  if (press.key.startsWith("Arrow")) {
    const step = press.shiftKey ? NUDGE_SHIFT : NUDGE;
    const dx = press.key === "ArrowLeft" ? -step : press.key === "ArrowRight" ? step : 0;
    const dy = press.key === "ArrowUp" ? -step : press.key === "ArrowDown" ? step : 0;
    return { kind: "nudge", dx, dy };
  }
  return null;
}
