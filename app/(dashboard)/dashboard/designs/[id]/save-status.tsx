"use client";
// The editor's status line: unsaved changes, the last save, or why a save was refused. When a newer
// version was saved elsewhere, it offers the choice: save this one over it, or open the newer one.
import type { SaveMessage } from "./use-save-design";
import styles from "./editor.module.css";

export function SaveStatus({
  message,
  dirty,
  updatedAt,
  onOverwrite,
}: {
  message: SaveMessage | null;
  dirty: boolean;
  updatedAt: string;
  onOverwrite: () => void;
}) {
  return (
    <p className={styles.status} role="status">
      {message && !message.ok ? (
        <span className={styles.badText}>
          {message.text}
          {message.conflict && (
            <>
              {" "}
              <button type="button" className={styles.linkish} onClick={onOverwrite}>
                Save mine over it
              </button>{" "}
              or{" "}
              <button type="button" className={styles.linkish} onClick={() => window.location.reload()}>
                open the newer version
              </button>{" "}
              (yours stays kept in this browser).
            </>
          )}
        </span>
      ) : dirty ? (
        "Unsaved changes."
      ) : message ? (
        <span className={styles.okText}>{message.text}</span>
      ) : (
        // A fixed format: the server renders this too, and its locale and time zone are not the browser's.
        `Last saved ${updatedAt.slice(0, 16).replace("T", " ")} UTC.`
      )}
    </p>
  );
}
