"use client";
// The document being edited, with undo and redo. Every change goes through here so that undo has
// one step per gesture or per burst of typing into one field (history.ts holds those rules).
import { useCallback, useRef, useState, type RefObject } from "react";
import type { DesignDocument } from "@/lib/render/document";
import { emptyHistory, recordChange, redoStep, undoStep, type History, type Step } from "./history";

export type DesignHistory = {
  doc: DesignDocument;
  /** The document of the latest render, for handlers that run between renders (a save in flight). */
  docRef: RefObject<DesignDocument>;
  /** Replaces the document as one undo step; changes with the same `coalesce` key close together are one. */
  change: (next: DesignDocument, coalesce?: string) => void;
  /** Records an undo step for a gesture whose moves follow through `changeDuringGesture`. */
  remember: (coalesce?: string) => void;
  changeDuringGesture: (update: (doc: DesignDocument) => DesignDocument) => void;
  /** Each returns the document now shown, or null when there was nothing to undo (redo). */
  undo: () => DesignDocument | null;
  redo: () => DesignDocument | null;
};

export function useDesignHistory(initial: DesignDocument): DesignHistory {
  const [doc, setDoc] = useState<DesignDocument>(initial);
  // Not state: recording a step must not render again, and undo must see the steps of this very event.
  const history = useRef<History<DesignDocument>>(emptyHistory());
  const docRef = useRef(doc);
  // eslint-disable-next-line react-hooks/refs -- the latest document for callbacks that must stay stable; rendering never reads it
  docRef.current = doc;

  const remember = useCallback((coalesce?: string) => {
    history.current = recordChange(history.current, docRef.current, Date.now(), coalesce);
  }, []);
  const change = useCallback(
    (next: DesignDocument, coalesce?: string) => {
      remember(coalesce);
      setDoc(next);
    },
    [remember],
  );
  const travel = useCallback((step: Step<DesignDocument> | null) => {
    if (!step) return null;
    history.current = step.history;
    setDoc(step.state);
    return step.state;
  }, []);
  const undo = useCallback(() => travel(undoStep(history.current, docRef.current)), [travel]);
  const redo = useCallback(() => travel(redoStep(history.current, docRef.current)), [travel]);

  return { doc, docRef, change, remember, changeDuringGesture: setDoc, undo, redo };
}
