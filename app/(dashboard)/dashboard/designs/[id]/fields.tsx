"use client";
// The inspector's inputs. Each shows the server's message for its path (the same message the API
// would give for that field) right below it.
import { useEffect, useId, useState } from "react";
import styles from "./editor.module.css";

type Common = { label: string; error?: string; hint?: string };

function Message({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (error)
    return (
      <span id={id} className={styles.fieldError}>
        {error}
      </span>
    );
  if (hint)
    return (
      <span id={id} className={styles.hint}>
        {hint}
      </span>
    );
  return null;
}

/**
 * A number input that lets a person type freely ("1.", "-", an empty box) and only reports numbers;
 * it picks up outside changes (a drag) whenever it is not being edited.
 */
export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  error,
  hint,
}: Common & { value: number; onChange: (v: number) => void; min?: number; max?: number; step?: number }) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- takes up an outside change (a drag) once the box is not being edited
    if (!editing) setText(String(value));
  }, [value, editing]);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        value={text}
        min={min}
        max={max}
        step={step}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-m` : undefined}
        onFocus={() => setEditing(true)}
        onBlur={() => {
          setEditing(false);
          setText(String(value));
        }}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (e.target.value.trim() !== "" && Number.isFinite(v)) onChange(v);
        }}
      />
      <Message id={`${id}-m`} error={error} hint={hint} />
    </div>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  error,
  hint,
  disabled,
}: Common & { value: T; options: readonly (T | { value: T; label: string })[]; onChange: (v: T) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => {
          const option = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
      </select>
      <Message id={`${id}-m`} error={error} hint={hint} />
    </div>
  );
}

const HEX6 = /^#[0-9a-fA-F]{6}$/;

/** A colour: a picker for the common case, and the exact hex (with alpha) for everything else. */
export function ColorField({ label, value, onChange, error, hint }: Common & { value: string; onChange: (v: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- takes up an outside change of the colour; the typed text is local until then
  useEffect(() => setText(value), [value]);
  const six = HEX6.test(value)
    ? value
    : /^#[0-9a-fA-F]{3}$/.test(value)
      ? `#${[...value.slice(1)].map((c) => c + c).join("")}`
      : value.slice(0, 7);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <div className={styles.colorRow}>
        <input
          type="color"
          aria-label={`${label} picker`}
          value={HEX6.test(six) ? six : "#000000"}
          onChange={(e) => onChange(e.target.value)}
        />
        <input
          id={id}
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setText(e.target.value);
            onChange(e.target.value.trim());
          }}
        />
      </div>
      <Message id={`${id}-m`} error={error} hint={hint} />
    </div>
  );
}

export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}
