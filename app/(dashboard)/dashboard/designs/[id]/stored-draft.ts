// Unsaved work kept in the browser's localStorage, as plain data: what is stored, how a stored value
// is read back (anything else in that key is ignored, never trusted), and when it is worth offering.
import type { DesignDocument } from "@/lib/render/document";

export type StoredDraft = {
  /** The saved version the draft was based on: restoring it restores that base, so a save still notices newer saves. */
  base: string;
  name: string;
  document: DesignDocument;
  keptAt: string;
};

export const storedDraftKey = (designId: string) => `design-draft:${designId}`;

/** A stored draft, or null for nothing stored, broken JSON, or a value of another shape. */
export function parseStoredDraft(raw: string | null): StoredDraft | null {
  try {
    const draft = raw ? (JSON.parse(raw) as Partial<StoredDraft> | null) : null;
    return draft &&
      typeof draft.base === "string" &&
      typeof draft.name === "string" &&
      draft.document &&
      Array.isArray(draft.document.elements)
      ? (draft as StoredDraft)
      : null;
  } catch {
    return null;
  }
}

/** Offered back only when it differs from what the editor opened with: otherwise there is nothing to restore. */
export function isWorthOffering(draft: StoredDraft, opened: { name: string; document: DesignDocument }): boolean {
  return draft.name !== opened.name || JSON.stringify(draft.document) !== JSON.stringify(opened.document);
}
