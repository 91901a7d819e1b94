"use client";
// The font picker: the families grouped by kind, each name in its own face, as radio buttons in a
// disclosure (a native select cannot style its options everywhere). The summary shows the current
// family in its face.
import { useId } from "react";
import { familiesOfKind, FONT_CATALOG, FONT_KINDS, type FontFamily, type FontKind } from "@/lib/render/document";
import { PICKER_FONT_FACES } from "./font-faces";
import styles from "./editor.module.css";

const KIND_LABELS: Record<FontKind, string> = {
  sans: "Sans serif",
  serif: "Serif",
  script: "Script",
  monospace: "Monospace",
  display: "Display",
};

export function FontPicker({ value, onChange, error }: { value: FontFamily; onChange: (family: FontFamily) => void; error?: string }) {
  const id = useId();
  const singleWeight = FONT_CATALOG[value].weights.length === 1;
  return (
    <fieldset className={styles.fontPicker} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Font</legend>
      <details>
        <summary>
          <span style={{ fontFamily: PICKER_FONT_FACES[value] }}>{value}</span>
          <span className={styles.fontKind}>{KIND_LABELS[FONT_CATALOG[value].kind]}</span>
        </summary>
        <div className={styles.fontGroups}>
          {FONT_KINDS.map((kind) => (
            <div key={kind} role="group" aria-labelledby={`${id}-${kind}`}>
              <p id={`${id}-${kind}`} className={styles.fontGroupLabel}>
                {KIND_LABELS[kind]}
              </p>
              {familiesOfKind(kind).map((family) => (
                <label key={family} className={styles.fontOption}>
                  <input type="radio" name={`${id}-family`} value={family} checked={value === family} onChange={() => onChange(family)} />
                  <span style={{ fontFamily: PICKER_FONT_FACES[family] }}>{family}</span>
                </label>
              ))}
            </div>
          ))}
        </div>
      </details>
      {singleWeight && <p className={styles.hint}>{value} has one weight: Bold draws in it too.</p>}
      {error && (
        <span id={`${id}-error`} className={styles.fieldError}>
          {error}
        </span>
      )}
    </fieldset>
  );
}
