"use client";
// Under the canvas: why the preview could not be made, the problems that keep the draft from being
// saved, and the renderer's warnings for the sample values. Problems and warnings name elements by
// index; people know them by their layer name, which selects the element when clicked.
import type { DesignElement } from "@/lib/render/document";
import { elementLabel } from "./geometry";
import { problemElementIndex, readWarning } from "./server-answers";
import styles from "./editor.module.css";

export function PreviewNotes({
  failure,
  problems,
  warnings,
  elements,
  onSelect,
}: {
  failure: string | null;
  /** [path, message] pairs, as listed (the recipient name's problem shows next to its field instead). */
  problems: [string, string][];
  warnings: string[];
  elements: DesignElement[];
  onSelect: (index: number) => void;
}) {
  return (
    <>
      {failure && <p className={styles.badText}>{failure}</p>}
      {problems.length > 0 && (
        <div className={styles.problems} role="alert">
          <strong>The preview shows the last valid version. Fix these to save:</strong>
          <ul>
            {problems.map(([path, message]) => {
              const index = problemElementIndex(path);
              const el = index !== null ? elements[index] : undefined;
              return (
                <li key={path}>
                  {el && index !== null ? (
                    <button type="button" className={styles.linkish} onClick={() => onSelect(index)}>
                      {elementLabel(el)}
                    </button>
                  ) : (
                    <code>{path}</code>
                  )}
                  : {message}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {warnings.length > 0 && problems.length === 0 && (
        <div className={styles.warnings}>
          <strong>With these sample values:</strong>
          <ul>
            {warnings.map((w) => {
              const warning = readWarning(w);
              const el = warning ? elements[warning.index] : undefined;
              return (
                <li key={w}>
                  {el && warning ? (
                    <>
                      <button type="button" className={styles.linkish} onClick={() => onSelect(warning.index)}>
                        {elementLabel(el)}
                      </button>
                      : {warning.message}
                    </>
                  ) : (
                    w
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </>
  );
}
