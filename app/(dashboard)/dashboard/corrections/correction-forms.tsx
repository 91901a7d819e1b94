"use client";
import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import own from "./corrections.module.css";
import { approveCorrectionAction, rejectCorrectionAction } from "./actions";

/**
 * Said above the queue once a request is decided: the decided request leaves the open list when the page
 * refreshes (the navigation's count with it), so its confirmation cannot stay inside its own item.
 */
const DecidedContext = createContext<(message: string) => void>(() => undefined);

export function CorrectionQueue({ children }: { children: React.ReactNode }) {
  const [messages, setMessages] = useState<string[]>([]);
  return (
    <DecidedContext.Provider value={(message) => setMessages((m) => [...m, message])}>
      <div role="status" data-testid="correction-decisions">
        {messages.map((m, i) => (
          <p key={i} className={`${styles.notice} ${styles.ok}`}>
            {m}
          </p>
        ))}
      </div>
      {children}
    </DecidedContext.Provider>
  );
}

/** Approve, or reject with a reason (the reason field opens in place); the outcome is said next to them. */
export function CorrectionDecision({ id, summary }: { id: string; summary: string }) {
  const approve = useFormAction(approveCorrectionAction);
  const reject = useFormAction(rejectCorrectionAction);
  const [rejecting, setRejecting] = useState(false);
  const decided = useContext(DecidedContext);
  const router = useRouter();
  const done = approve.state.status === "ok" ? approve.state : reject.state.status === "ok" ? reject.state : null;
  useEffect(() => {
    if (!done) return;
    decided(`${summary}: ${done.message}`);
    // The queue and the navigation's count, as they are now.
    router.refresh();
    // Once per decision: `done` is a new object only when an action answers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done]);
  if (done) return null;
  const reasonError = reject.fieldErrors.reason;
  return (
    <div className={own.decision}>
      {approve.state.status === "error" && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {approve.state.message}
        </p>
      )}
      {reject.state.status === "error" && !reasonError && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {reject.state.message}
        </p>
      )}
      {!rejecting ? (
        <div className={styles.actions}>
          <form onSubmit={approve.onSubmit}>
            <input type="hidden" name="id" value={id} />
            <button className={styles.button} type="submit" disabled={approve.pending} aria-label={`Approve: ${summary}`}>
              {approve.pending ? "Approving…" : "Approve"}
            </button>
          </form>
          <button className={styles.secondary} type="button" onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      ) : (
        <form className={own.rejectForm} onSubmit={reject.onSubmit} noValidate>
          <input type="hidden" name="id" value={id} />
          <div className={styles.field}>
            <label htmlFor={`reason-${id}`}>Reason (the recipient is emailed it)</label>
            <input
              id={`reason-${id}`}
              name="reason"
              maxLength={500}
              autoFocus
              aria-invalid={Boolean(reasonError)}
              aria-describedby={reasonError ? `reason-${id}-error` : undefined}
            />
            {reasonError && (
              <span className={styles.fieldError} id={`reason-${id}-error`}>
                Reason {reasonError}
              </span>
            )}
          </div>
          <div className={styles.actions}>
            <button className={styles.danger} type="submit" disabled={reject.pending}>
              {reject.pending ? "Rejecting…" : "Reject request"}
            </button>
            <button className={styles.secondary} type="button" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
