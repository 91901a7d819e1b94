"use client";
import { useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import {
  createWebhookAction,
  deleteWebhookAction,
  retryWebhookDeliveryAction,
  rotateWebhookSecretAction,
  setWebhookEnabledAction,
  type ShownSecret,
} from "./actions";

/** A signing secret, shown once, with a copy button. */
function SecretOnce({ state, lead }: { state: FormState<ShownSecret>; lead: string }) {
  const [copied, setCopied] = useState(false);
  if (state.status !== "ok") return null;
  return (
    <div className={styles.secret} role="status">
      <span>{lead} Copy the signing secret now; it will not be shown again:</span>
      <code data-testid="webhook-secret">{state.result.secret}</code>
      <button
        className={styles.secondary}
        type="button"
        onClick={() => void navigator.clipboard.writeText(state.result.secret).then(() => setCopied(true))}
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}

export function CreateWebhookForm({ eventTypes }: { eventTypes: readonly string[] }) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(createWebhookAction, { resetOnSuccess: true });
  return (
    <>
      <SecretOnce state={state} lead="Endpoint added." />
      {state.status === "error" && Object.keys(fieldErrors).length === 0 && (
        <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>
      )}
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <div className={styles.field}>
          <label htmlFor="webhook-url">URL</label>
          <input
            id="webhook-url"
            name="url"
            placeholder="https://example.com/hooks/credentials"
            aria-invalid={Boolean(fieldErrors.url)}
            aria-describedby={fieldErrors.url ? "webhook-url-error" : undefined}
          />
          {fieldErrors.url && (
            <span className={styles.fieldError} id="webhook-url-error">
              URL {fieldErrors.url}
            </span>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor="webhook-description">Description (optional)</label>
          <input id="webhook-description" name="description" placeholder="e.g. LMS sync" aria-invalid={Boolean(fieldErrors.description)} />
          {fieldErrors.description && <span className={styles.fieldError}>Description {fieldErrors.description}</span>}
        </div>
        <fieldset className={styles.field} aria-describedby={fieldErrors.events ? "webhook-events-error" : undefined}>
          <legend>Events</legend>
          <label>
            <input type="checkbox" name="events" value="*" /> All events, including ones added later
          </label>
          {eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" name="events" value={type} /> <code>{type}</code>
            </label>
          ))}
          {fieldErrors.events && (
            <span className={styles.fieldError} id="webhook-events-error">
              Events {fieldErrors.events}
            </span>
          )}
        </fieldset>
        <button className={styles.button} type="submit" disabled={pending} style={{ marginTop: 24 }}>
          {pending ? "Adding…" : "Add endpoint"}
        </button>
      </form>
    </>
  );
}

export function EndpointActions({ id, url, enabled }: { id: string; url: string; enabled: boolean }) {
  const rotate = useFormAction(rotateWebhookSecretAction);
  const toggle = useFormAction(setWebhookEnabledAction);
  const remove = useFormAction(deleteWebhookAction);
  const failed = [rotate.state, toggle.state, remove.state].find((s) => s.status === "error");
  return (
    <>
      <SecretOnce state={rotate.state} lead="Secret rotated: for 24 hours the old one keeps signing alongside it." />
      <div style={{ display: "flex", gap: 8, flexWrap: "wrap" }}>
        <form onSubmit={toggle.onSubmit}>
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
          <button className={styles.secondary} type="submit" disabled={toggle.pending}>
            {enabled ? "Disable" : "Enable"}
          </button>
        </form>
        <form
          onSubmit={(e) => {
            if (!window.confirm(`Rotate the signing secret of ${url}? The old secret keeps signing for 24 hours.`))
              return e.preventDefault();
            rotate.onSubmit(e);
          }}
        >
          <input type="hidden" name="id" value={id} />
          <button className={styles.secondary} type="submit" disabled={rotate.pending}>
            {rotate.pending ? "Rotating…" : "Rotate secret"}
          </button>
        </form>
        <form
          onSubmit={(e) => {
            if (!window.confirm(`Delete the endpoint ${url}? Nothing more will be sent to it.`)) return e.preventDefault();
            remove.onSubmit(e);
          }}
        >
          <input type="hidden" name="id" value={id} />
          <button className={styles.danger} type="submit" disabled={remove.pending}>
            {remove.pending ? "Deleting…" : "Delete"}
          </button>
        </form>
      </div>
      {failed?.status === "error" && <p className={`${styles.notice} ${styles.bad}`}>{failed.message}</p>}
    </>
  );
}

export function RetryDeliveryButton({ id, eventId }: { id: string; eventId: string }) {
  const { state, onSubmit, pending } = useFormAction(retryWebhookDeliveryAction);
  return (
    <form onSubmit={onSubmit}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="eventId" value={eventId} />
      <button className={styles.secondary} type="submit" disabled={pending}>
        {pending ? "Queuing…" : "Retry"}
      </button>
      {state.status === "ok" && <span className={styles.muted}> {state.message}</span>}
      {state.status === "error" && <span className={styles.fieldError}> {state.message}</span>}
    </form>
  );
}
