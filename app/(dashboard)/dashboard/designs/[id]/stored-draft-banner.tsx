"use client";
// The offer of unsaved work kept in this browser from before (see use-stored-draft.ts).
import type { StoredDraft } from "./stored-draft";
import styles from "./editor.module.css";

export function StoredDraftBanner({ draft, onRestore, onDiscard }: { draft: StoredDraft; onRestore: () => void; onDiscard: () => void }) {
  return (
    <div className={styles.draftBanner} role="region" aria-label="Unsaved changes from before">
      <span>Unsaved changes to this design from {draft.keptAt.slice(0, 16).replace("T", " ")} UTC were kept in this browser.</span>
      <button type="button" className={styles.small} onClick={onRestore}>
        Restore them
      </button>
      <button type="button" className={styles.small} onClick={onDiscard}>
        Discard
      </button>
    </div>
  );
}
