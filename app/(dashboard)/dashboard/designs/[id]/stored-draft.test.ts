import { describe, expect, it } from "vitest";
import type { DesignDocument } from "@/lib/render/document";
import { isWorthOffering, parseStoredDraft, storedDraftKey, type StoredDraft } from "./stored-draft";

const document = {
  version: 1,
  canvas: { size: "A4", orientation: "landscape" },
  background: { color: "#ffffff" },
  elements: [],
} as unknown as DesignDocument;
const draft: StoredDraft = { base: "2025-01-01T00:00:00.000Z", name: "Spring", document, keptAt: "2025-01-02T10:00:00.000Z" };

describe("stored drafts", () => {
  it("are kept per design", () => {
    expect(storedDraftKey("dsn_1")).not.toBe(storedDraftKey("dsn_2"));
  });

  it("read back what was stored", () => {
    expect(parseStoredDraft(JSON.stringify(draft))).toEqual(draft);
  });

  it("ignore nothing stored, broken JSON and values of another shape", () => {
    for (const raw of [
      null,
      "",
      "{",
      "null",
      "42",
      '"text"',
      "[]",
      JSON.stringify({ ...draft, base: 1 }),
      JSON.stringify({ ...draft, name: undefined }),
      JSON.stringify({ ...draft, document: { elements: "none" } }),
      JSON.stringify({ ...draft, document: null }),
    ]) {
      expect(parseStoredDraft(raw), String(raw)).toBeNull();
    }
  });

  it("are offered back only when they differ from what the editor opened with", () => {
    expect(isWorthOffering(draft, { name: "Spring", document })).toBe(false);
    expect(isWorthOffering(draft, { name: "Autumn", document })).toBe(true);
    expect(isWorthOffering(draft, { name: "Spring", document: { ...document, background: { color: "#000000" } } as DesignDocument })).toBe(
      true,
    );
  });
});
