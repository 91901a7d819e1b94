import { describe, expect, it } from "vitest";
import { ALIGN_KEYS, commandForKey, DISTRIBUTE_KEYS, type KeyPress } from "./key-commands";

const press = (key: string, mods: Partial<Omit<KeyPress, "key">> = {}): KeyPress => ({
  key,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  ...mods,
});
const onCanvas = { typing: false, hasSelection: true };
const inField = { typing: true, hasSelection: true };
const nothingSelected = { typing: false, hasSelection: false };

describe("editor keys", () => {
  it("saves with Ctrl+S or Cmd+S, even from a text field", () => {
    expect(commandForKey(press("s", { ctrlKey: true }), inField)).toEqual({ kind: "save" });
    expect(commandForKey(press("S", { metaKey: true, shiftKey: true }), nothingSelected)).toEqual({ kind: "save" });
    expect(commandForKey(press("s"), onCanvas)).toBeNull();
  });

  it("undoes and redoes with the usual keys, with or without a selection", () => {
    expect(commandForKey(press("z", { ctrlKey: true }), nothingSelected)).toEqual({ kind: "undo" });
    expect(commandForKey(press("Z", { metaKey: true, shiftKey: true }), nothingSelected)).toEqual({ kind: "redo" });
    expect(commandForKey(press("y", { ctrlKey: true }), onCanvas)).toEqual({ kind: "redo" });
  });

  it("leaves every other key to a field that takes text", () => {
    for (const key of [
      press("z", { ctrlKey: true }),
      press("y", { ctrlKey: true }),
      press("Backspace"),
      press("Delete"),
      press("ArrowLeft"),
      press("d", { ctrlKey: true }),
      press("Escape"),
    ]) {
      expect(commandForKey(key, inField), key.key).toBeNull();
    }
  });

  it("acts on the selected element: delete, duplicate, deselect", () => {
    expect(commandForKey(press("Delete"), onCanvas)).toEqual({ kind: "remove" });
    expect(commandForKey(press("Backspace"), onCanvas)).toEqual({ kind: "remove" });
    expect(commandForKey(press("d", { metaKey: true }), onCanvas)).toEqual({ kind: "duplicate" });
    expect(commandForKey(press("d"), onCanvas)).toBeNull();
    expect(commandForKey(press("Escape"), onCanvas)).toEqual({ kind: "deselect" });
  });

  it("nudges by a point with the arrows, by ten with Shift", () => {
    expect(commandForKey(press("ArrowLeft"), onCanvas)).toEqual({ kind: "nudge", dx: -1, dy: 0 });
    expect(commandForKey(press("ArrowRight", { shiftKey: true }), onCanvas)).toEqual({ kind: "nudge", dx: 10, dy: 0 });
    expect(commandForKey(press("ArrowUp", { shiftKey: true }), onCanvas)).toEqual({ kind: "nudge", dx: 0, dy: -10 });
    expect(commandForKey(press("ArrowDown"), onCanvas)).toEqual({ kind: "nudge", dx: 0, dy: 1 });
  });

  it("does nothing to elements when none is selected, so the browser keeps those keys", () => {
    for (const key of [press("Delete"), press("Backspace"), press("d", { ctrlKey: true }), press("Escape"), press("ArrowDown")]) {
      expect(commandForKey(key, nothingSelected), key.key).toBeNull();
    }
  });

  it("ignores other keys", () => {
    expect(commandForKey(press("a"), onCanvas)).toBeNull();
    expect(commandForKey(press("Enter"), onCanvas)).toBeNull();
  });
});

describe("arrange keys", () => {
  // Alt changes the character typed on a Mac (Alt+Shift+L is "Ò"): the physical key is what counts.
  const arrange = (letter: string) => press(letter, { altKey: true, shiftKey: true, code: `Key${letter}` });
  const twoSelected = { typing: false, hasSelection: true, selectionSize: 2 };
  const threeSelected = { typing: false, hasSelection: true, selectionSize: 3 };

  it("aligns the selection with Alt+Shift and the edge's letter", () => {
    for (const [letter, edge] of Object.entries(ALIGN_KEYS)) {
      expect(commandForKey(arrange(letter), twoSelected)).toEqual({ kind: "align", edge });
      expect(commandForKey({ ...arrange(letter), key: "Ò" }, twoSelected)).toEqual({ kind: "align", edge });
    }
  });

  it("distributes with Alt+Shift+H and Alt+Shift+V, from three elements on", () => {
    expect(commandForKey(arrange("H"), threeSelected)).toEqual({ kind: "distribute", axis: "horizontal" });
    expect(commandForKey(arrange("V"), threeSelected)).toEqual({ kind: "distribute", axis: "vertical" });
    expect(commandForKey(arrange("H"), twoSelected)).toBeNull();
  });

  it("does not take the letters without both modifiers, nor from a field, nor without a selection", () => {
    expect(commandForKey(press("l", { altKey: true, code: "KeyL" }), twoSelected)).toBeNull();
    expect(commandForKey(press("L", { shiftKey: true, code: "KeyL" }), twoSelected)).toBeNull();
    expect(commandForKey(arrange("L"), { ...twoSelected, typing: true })).toBeNull();
    expect(commandForKey(arrange("L"), nothingSelected)).toBeNull();
  });

  it("keeps every earlier shortcut as it was", () => {
    const letters = new Set([...Object.keys(ALIGN_KEYS), ...Object.keys(DISTRIBUTE_KEYS)]);
    expect(letters.size).toBe(8);
    for (const taken of ["S", "Z", "Y", "D"]) expect(letters.has(taken)).toBe(false);
  });

  it("selects every element with Ctrl+A on the canvas, not in a field", () => {
    expect(commandForKey(press("a", { ctrlKey: true }), nothingSelected)).toEqual({ kind: "selectAll" });
    expect(commandForKey(press("a", { ctrlKey: true }), inField)).toBeNull();
  });
});
