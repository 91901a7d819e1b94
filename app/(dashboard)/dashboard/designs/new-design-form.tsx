"use client";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import { createDesignAction } from "./actions";
import styles from "../dashboard.module.css";

/** A name, and what to start from: a default layout, or a copy of an existing design. Opens the editor. */
export function NewDesignForm({ designs }: { designs: { id: string; name: string; type: string }[] }) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(createDesignAction);
  return (
    <form className={styles.form} onSubmit={onSubmit}>
      <div className={styles.field}>
        <label htmlFor="new-design-name">Name</label>
        <input
          id="new-design-name"
          name="name"
          placeholder="Spring cohort certificate"
          aria-invalid={fieldErrors.name ? true : undefined}
          aria-describedby={fieldErrors.name ? "new-design-name-error" : undefined}
        />
        {fieldErrors.name && (
          <span id="new-design-name-error" className={styles.fieldError}>
            {fieldErrors.name}
          </span>
        )}
      </div>
      <div className={styles.field}>
        <label htmlFor="new-design-from">Start from</label>
        <select id="new-design-from" name="from" defaultValue="blank:certificate">
          <option value="blank:certificate">A simple certificate (A4)</option>
          <option value="blank:badge">A simple badge (square)</option>
          {designs.length > 0 && (
            <optgroup label="A copy of">
              {designs.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.type})
                </option>
              ))}
            </optgroup>
          )}
        </select>
        {fieldErrors.from && <span className={styles.fieldError}>{fieldErrors.from}</span>}
      </div>
      <button className={styles.button} type="submit" disabled={pending} style={{ alignSelf: "flex-end" }}>
        {pending ? "Creating…" : "Create and edit"}
      </button>
      {state.status === "error" && Object.keys(fieldErrors).length === 0 && (
        <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>
      )}
    </form>
  );
}
