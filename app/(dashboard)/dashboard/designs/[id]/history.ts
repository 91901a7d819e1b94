// The editor's undo history as plain data, so its rules (one step per gesture or typing burst, a
// bounded past, redo lost on a new change) are tested without a browser. useDesignHistory keeps it.

/** How many steps back undo reaches; older ones are dropped. */
export const HISTORY_LIMIT = 100;
/** Changes with the same key closer together than this are one undo step (typing into one field). */
export const COALESCE_MS = 1500;

export type History<T> = {
  past: T[];
  future: T[];
  /** The coalescing key of the last recorded change, while a burst can still continue. */
  lastKey: string | null;
  lastAt: number;
};

/** A move through the history: the history after it and the state to show. */
export type Step<T> = { history: History<T>; state: T };

export function emptyHistory<T>(): History<T> {
  return { past: [], future: [], lastKey: null, lastAt: 0 };
}

/** `current` is about to be replaced by a change: keep it as an undo step, unless the change continues a burst. */
export function recordChange<T>(history: History<T>, current: T, now: number, coalesce?: string): History<T> {
  if (coalesce && coalesce === history.lastKey && now - history.lastAt < COALESCE_MS) return { ...history, lastAt: now };
  const past = [...history.past, current];
  if (past.length > HISTORY_LIMIT) past.shift();
  return { past, future: [], lastKey: coalesce ?? null, lastAt: now };
}

/** One step back from `current`, or null when there is nothing to undo. */
export function undoStep<T>(history: History<T>, current: T): Step<T> | null {
  return travel(history, current, "past", "future");
}

/** One step forward again after undo, or null when nothing was undone since the last change. */
export function redoStep<T>(history: History<T>, current: T): Step<T> | null {
  return travel(history, current, "future", "past");
}

/** Takes the newest state of one stack and puts `current` on the other; a later change starts a new step. */
function travel<T>(history: History<T>, current: T, from: "past" | "future", to: "past" | "future"): Step<T> | null {
  const source = history[from];
  const state = source[source.length - 1];
  if (state === undefined) return null;
  return { history: { ...history, [from]: source.slice(0, -1), [to]: [...history[to], current], lastKey: null }, state };
}
