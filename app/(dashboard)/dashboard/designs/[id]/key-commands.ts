// The editor's keyboard shortcuts as a plain mapping from a key press to a command, so which key
// does what (and when a field keeps its keys) is tested without a browser. useEditorKeys applies it.

export type KeyPress = { key: string; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean };

export type EditorCommand =
  | { kind: "save" }
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "remove" }
  | { kind: "duplicate" }
  | { kind: "deselect" }
  | { kind: "nudge"; dx: number; dy: number };

/** Points an arrow key moves the selected element; with Shift, ten times as far. */
export const NUDGE = 1;
export const NUDGE_SHIFT = 10;

/**
 * The command for a key press, or null when the editor leaves the key alone. `typing`: focus is in a
 * field that takes text, which keeps every key but Ctrl/Cmd+S. `hasSelection`: an element is selected,
 * which the element commands (delete, duplicate, Escape, arrows) need.
 */
export function commandForKey(press: KeyPress, context: { typing: boolean; hasSelection: boolean }): EditorCommand | null {
  const mod = press.metaKey || press.ctrlKey;
  const letter = press.key.toLowerCase();
  if (mod && letter === "s") return { kind: "save" };
  if (context.typing) return null;
  if (mod && letter === "z") return { kind: press.shiftKey ? "redo" : "undo" };
  if (mod && letter === "y") return { kind: "redo" };
  if (!context.hasSelection) return null;
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
