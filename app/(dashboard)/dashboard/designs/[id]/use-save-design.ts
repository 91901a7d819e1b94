"use client";
// Saving the draft as a new revision. A save carries the version it is based on, so a newer save
// made elsewhere (another tab, a colleague) is refused instead of silently overwritten; the person
// then chooses to save theirs over it or to open the newer version.
import { useCallback, useState, type RefObject } from "react";
import type { DesignDocument } from "@/lib/render/document";
import { saveDesignAction, type ImageChange } from "../actions";
import { documentProblemsOf, type Problems } from "./server-answers";

export type SaveMessage = { ok: boolean; text: string; conflict?: boolean };

export type SaveDesign = {
  /** The name or the document differ from the last saved ones. */
  dirty: boolean;
  saving: boolean;
  /** `overwrite`: save over a newer version saved elsewhere (the choice offered after a conflict). */
  save: (overwrite?: boolean) => Promise<void>;
  message: SaveMessage | null;
  nameError: string | null;
  /** The version the edits are based on. */
  base: string;
  /** Continue from another base: a draft restored from the browser was based on its own. */
  rebase: (base: string) => void;
  /** When the design was last saved, as far as this editor knows: its own saves and image changes. */
  updatedAt: string;
  /** An image upload or removal saved a revision too. */
  imagesChanged: (change: ImageChange) => void;
};

type Saved = { name: string; document: string };

export function useSaveDesign({
  designId,
  opened,
  name,
  doc,
  docRef,
  showProblems,
}: {
  designId: string;
  /** The saved design the editor opened. */
  opened: { name: string; document: DesignDocument; updatedAt: string };
  name: string;
  doc: DesignDocument;
  docRef: RefObject<DesignDocument>;
  showProblems: (problems: Problems) => void;
}): SaveDesign {
  const [saved, setSaved] = useState<Saved>({ name: opened.name, document: JSON.stringify(opened.document) });
  const [updatedAt, setUpdatedAt] = useState(opened.updatedAt);
  const [base, setBase] = useState(opened.updatedAt);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const dirty = saved.name !== name || saved.document !== JSON.stringify(doc);

  const save = useCallback(
    async (overwrite = false) => {
      setSaving(true);
      setMessage(null);
      try {
        const snapshot = { name, document: docRef.current };
        const result = await saveDesignAction(designId, { ...snapshot, baseUpdatedAt: base, overwrite });
        if (result.status === "ok") {
          setSaved({ name: snapshot.name, document: JSON.stringify(snapshot.document) });
          setUpdatedAt(result.result.updatedAt);
          setBase(result.result.updatedAt);
          setNameError(null);
          // Problems reported meanwhile for newer edits still stand.
          if (docRef.current === snapshot.document) showProblems({});
          setMessage({ ok: true, text: "Saved. New credentials and previews use this version." });
        } else if (result.status === "error") {
          const problems = documentProblemsOf(result.fieldErrors);
          if (Object.keys(problems).length) showProblems(problems);
          setNameError(result.fieldErrors.name ?? null);
          setMessage({ ok: false, text: result.message, conflict: "conflict" in result && result.conflict === true });
        }
      } catch {
        setMessage({ ok: false, text: "Saving failed: the server could not be reached. Your changes are kept in this browser." });
      } finally {
        setSaving(false);
      }
    },
    [designId, name, base, docRef, showProblems],
  );

  const imagesChanged = useCallback((change: ImageChange) => {
    setUpdatedAt(change.updatedAt);
    // Our own image change moved the design on; someone else's save in between did not.
    setBase((b) => (b === change.previousUpdatedAt ? change.updatedAt : b));
  }, []);

  return { dirty, saving, save, message, nameError, base, rebase: setBase, updatedAt, imagesChanged };
}
