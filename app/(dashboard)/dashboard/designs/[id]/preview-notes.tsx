"use client";
// Under the canvas: why the preview could not be made, the problems that keep the draft from being
// saved, and the renderer's warnings for the sample values. Problems and warnings name elements by
// index; people know them by their layer name, which selects the element when clicked.
import type { TextOverflow } from "@/lib/designs/draft-preview";
import { LONG_SAMPLE_SCRIPTS as SCRIPTS } from "@/lib/designs/long-samples";
import type { DesignElement } from "@/lib/render/document";
import { elementLabel } from "./geometry";
import { problemElementIndex, readWarning } from "./server-answers";
import styles from "./editor.module.css";

/** How many scripts the long sample names are written in, for the editor's note. */
export const LONG_SAMPLE_SCRIPTS = SCRIPTS.length;

export function PreviewNotes({
  failure,
  problems,
  warnings,
  overflows,
  shownName,
  elements,
  onSelect,
  onTryName,
}: {
  failure: string | null;
  /** [path, message] pairs, as listed (the recipient name's problem shows next to its field instead). */
  problems: [string, string][];
  warnings: string[];
  /** Texts the renderer cut short with a sample name (the one shown, or another long one). */
  overflows: TextOverflow[];
  /** The recipient name the picture shows. */
  shownName: string | null;
  elements: DesignElement[];
  onSelect: (index: number) => void;
  /** Shows the preview with this recipient name. */
  onTryName: (name: string) => void;
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
      {overflows.length > 0 && problems.length === 0 && (
        <div className={styles.overflowNote} aria-live="polite" data-testid="overflow-warning">
          <strong>
            {overflows.length === 1 ? "A text does not fit its box" : `${overflows.length} texts do not fit their boxes`} with long names;
            it is cut short on such credentials. Make the box larger, allow more lines or a smaller size.
          </strong>
          <ul>
            {overflows.map(({ index, recipientName }) => {
              const el = elements[index];
              if (!el) return null;
              return (
                <li key={index}>
                  <button type="button" className={styles.linkish} onClick={() => onSelect(index)}>
                    {elementLabel(el)}
                  </button>{" "}
                  overflows with “<bdi>{recipientName}</bdi>”.{" "}
                  {recipientName !== shownName && (
                    <button type="button" className={styles.linkish} onClick={() => onTryName(recipientName)}>
                      Preview this name
                    </button>
                  )}
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
