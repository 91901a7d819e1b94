"use client";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../../dashboard.module.css";
import { sendTestEmailAction } from "../actions";

export function TestEmailButton({ id, email }: { id: string; email: string }) {
  const { state, onSubmit, pending } = useFormAction(sendTestEmailAction);
  return (
    <form onSubmit={onSubmit} style={{ marginTop: 12 }}>
      <input type="hidden" name="id" value={id} />
      <button className={styles.secondary} type="submit" disabled={pending}>
        Send me a test email ({email})
      </button>
      {state.status === "ok" && (
        <p className={`${styles.notice} ${styles.ok}`} role="status">
          {state.message}
        </p>
      )}
      {state.status === "error" && <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>}
    </form>
  );
}
