import { describe, expect, it } from "vitest";
import type { DesignElement } from "@/lib/render/document";
import { alignElements, distributeElements, newElement } from "./geometry";
import { COALESCE_MS, emptyHistory, HISTORY_LIMIT, recordChange, redoStep, undoStep, type History } from "./history";

/** Applies changes to a number, recording each like the editor does, and returns the history and the value. */
function edit(start: number, changes: { to: number; at: number; key?: string }[]) {
  let history: History<number> = emptyHistory();
  let value = start;
  for (const c of changes) {
    history = recordChange(history, value, c.at, c.key);
    value = c.to;
  }
  return { history, value };
}

describe("undo history", () => {
  it("steps back and forward through separate changes", () => {
    const { history, value } = edit(0, [
      { to: 1, at: 0 },
      { to: 2, at: 10 },
    ]);
    const back = undoStep(history, value)!;
    expect(back.state).toBe(1);
    const further = undoStep(back.history, back.state)!;
    expect(further.state).toBe(0);
    expect(undoStep(further.history, further.state)).toBeNull();
    const again = redoStep(further.history, further.state)!;
    expect(again.state).toBe(1);
    expect(redoStep(again.history, again.state)!.state).toBe(2);
  });

  it("has nothing to undo or redo when nothing changed", () => {
    expect(undoStep(emptyHistory<number>(), 0)).toBeNull();
    expect(redoStep(emptyHistory<number>(), 0)).toBeNull();
  });

  it("makes a burst of changes with one key a single step, while they come close together", () => {
    const typing = edit(0, [
      { to: 1, at: 0, key: "title" },
      { to: 2, at: COALESCE_MS - 1, key: "title" },
      // Each change extends the burst: measured from the previous change, not the first.
      { to: 3, at: 2 * COALESCE_MS - 2, key: "title" },
    ]);
    expect(undoStep(typing.history, typing.value)!.state).toBe(0);
  });

  it("starts a new step after a pause, for another key, or for a change without a key", () => {
    const paused = edit(0, [
      { to: 1, at: 0, key: "title" },
      { to: 2, at: COALESCE_MS, key: "title" },
    ]);
    expect(undoStep(paused.history, paused.value)!.state).toBe(1);
    const otherField = edit(0, [
      { to: 1, at: 0, key: "title" },
      { to: 2, at: 1, key: "size" },
    ]);
    expect(undoStep(otherField.history, otherField.value)!.state).toBe(1);
    const gestures = edit(0, [
      { to: 1, at: 0 },
      { to: 2, at: 1 },
    ]);
    expect(undoStep(gestures.history, gestures.value)!.state).toBe(1);
  });

  it("does not continue a burst across an undo", () => {
    const typed = edit(0, [
      { to: 1, at: 0, key: "title" },
      { to: 2, at: 10, key: "other" },
    ]);
    const back = undoStep(typed.history, typed.value)!;
    const retyped = recordChange(back.history, back.state, 20, "other");
    expect(undoStep(retyped, 5)!.state).toBe(1);
  });

  it("forgets what was undone once a new change is made", () => {
    const { history, value } = edit(0, [{ to: 1, at: 0 }]);
    const back = undoStep(history, value)!;
    const changed = recordChange(back.history, back.state, 10);
    expect(redoStep(changed, 7)).toBeNull();
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    const changes = Array.from({ length: HISTORY_LIMIT + 5 }, (_, i) => ({ to: i + 1, at: i * 10 }));
    let { history, value } = edit(0, changes);
    const seen: number[] = [];
    for (let step = undoStep(history, value); step; step = undoStep(history, value)) {
      ({ history, state: value } = step);
      seen.push(value);
    }
    expect(seen).toHaveLength(HISTORY_LIMIT);
    expect(seen.at(-1)).toBe(5);
  });

  it("leaves the history it was given as it was", () => {
    const { history, value } = edit(0, [{ to: 1, at: 0 }]);
    const copy = structuredClone(history);
    undoStep(history, value);
    recordChange(history, value, 5, "k");
    expect(history).toEqual(copy);
  });
});

describe("arranging is one undo step", () => {
  const canvas = { width: 842, height: 595 };
  const rect = (x: number, y: number) => ({ ...newElement("rect", canvas), x, y, width: 40, height: 20 }) as DesignElement;
  const start = [rect(10, 10), rect(300, 200), rect(600, 50)];

  it("undoes an align or a distribute of several elements at once, and redoes it", () => {
    for (const arrange of [
      (els: DesignElement[]) => alignElements(els, [0, 1, 2], "top", canvas),
      (els: DesignElement[]) => distributeElements(els, [0, 1, 2], "vertical", canvas),
    ]) {
      // The editor records the document once (`change`) and shows the arranged one.
      const history = recordChange(emptyHistory<DesignElement[]>(), start, 0);
      const arranged = arrange(start);
      expect(arranged.filter((el, i) => el !== start[i]).length).toBeGreaterThan(1);
      const back = undoStep(history, arranged)!;
      expect(back.state).toEqual(start);
      expect(undoStep(back.history, back.state)).toBeNull();
      expect(redoStep(back.history, back.state)!.state).toEqual(arranged);
    }
  });
});
