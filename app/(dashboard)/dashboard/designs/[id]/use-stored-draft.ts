"use client";
// Unsaved work survives a closed tab, an expired session or a crash: it is kept in this browser
// until saved, and offered back when the editor opens again.
import { useEffect, useState } from "react";
import type { DesignDocument } from "@/lib/render/document";
import { isWorthOffering, parseStoredDraft, storedDraftKey, type StoredDraft } from "./stored-draft";

export type StoredDraftOffer = {
  /** Work kept from before, while it is being offered back. */
  offered: StoredDraft | null;
  /** Ends the offer and hands over the draft to restore. */
  take: () => StoredDraft | null;
  /** Ends the offer and forgets the draft. */
  discard: () => void;
};

export function useStoredDraft({
  designId,
  opened,
  draft,
  dirty,
}: {
  designId: string;
  /** The saved design the editor opened: a kept draft equal to it is not offered. */
  opened: { name: string; document: DesignDocument };
  /** What is being edited now, with the version it is based on. */
  draft: { base: string; name: string; document: DesignDocument };
  dirty: boolean;
}): StoredDraftOffer {
  const key = storedDraftKey(designId);
  const [offered, setOffered] = useState<StoredDraft | null>(null);
  // Until the kept draft has been read, nothing may be written over it: the writing effect below runs
  // in the same commit as the reading one, before the offer is state, and would delete the draft.
  const [read, setRead] = useState(false);

  useEffect(() => {
    const found = parseStoredDraft(readStorage(key));
    // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage exists only in the browser, after hydration
    if (found && isWorthOffering(found, opened)) setOffered(found);
    setRead(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on opening: later changes are this editor's own
  }, []);

  const { base, name, document } = draft;
  useEffect(() => {
    if (!read || offered) return; // not over a draft not yet read, or still being offered back
    try {
      if (dirty)
        localStorage.setItem(key, JSON.stringify({ base, name, document, keptAt: new Date().toISOString() } satisfies StoredDraft));
      else localStorage.removeItem(key);
    } catch {
      /* storage full or disabled: the beforeunload warning still protects the work */
    }
  }, [document, name, dirty, base, key, offered, read]);

  const take = () => {
    setOffered(null);
    return offered;
  };
  const discard = () => {
    setOffered(null);
    try {
      localStorage.removeItem(key);
    } catch {
      /* nothing kept */
    }
  };
  return { offered, take, discard };
}

/** Storage can be disabled or refuse access: then nothing was kept. */
function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
