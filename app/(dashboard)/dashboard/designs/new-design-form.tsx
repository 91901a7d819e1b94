"use client";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import { createDesignAction } from "./actions";
import styles from "../dashboard.module.css";

/** Name and kind; the new design starts from the default layout and opens in the editor. */
export function NewDesignForm() {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(createDesignAction);
  return (
    <form className={styles.form} onSubmit={onSubmit}>
      <div className={styles.field}>
        <label htmlFor="new-design-name">Name</label>
        <input id="new-design-name" name="name" placeholder="Spring cohort certificate" aria-invalid={fieldErrors.name ? true : undefined} />
        {fieldErrors.name && <span className={styles.fieldError}>{fieldErrors.name}</span>}
      </div>
      <div className={styles.field}>
        <label htmlFor="new-design-type">Kind</label>
        <select id="new-design-type" name="type" defaultValue="certificate">
          <option value="certificate">Certificate (A4 or Letter)</option>
          <option value="badge">Badge (square)</option>
        </select>
        {fieldErrors.type && <span className={styles.fieldError}>{fieldErrors.type}</span>}
      </div>
      <button className={styles.button} type="submit" disabled={pending} style={{ alignSelf: "flex-end" }}>
        {pending ? "Creating…" : "Create and edit"}
      </button>
      {state.status === "error" && Object.keys(fieldErrors).length === 0 && <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>}
    </form>
  );
}
