"use client";
import { useEffect, useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import type { ApiGroup } from "@/lib/groups/serialize";
import { LOCALE_NAMES, SUPPORTED_LOCALES } from "@/lib/i18n/locales";
import { createTemplateAction, updateTemplateAction } from "./actions";
import type { EmailPreview } from "./email-draft";
import { EmailEditor, type PlaceholderOption } from "./email-editor";

type DesignOption = { id: string; name: string; type: string };

/** What the email editor starts from: the placeholders it offers, who a test goes to, the first preview. */
export type EmailEditorSetup = { placeholders: PlaceholderOption[]; userEmail: string; initialPreview: EmailPreview | null };

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span className={styles.fieldError} id={`${id}-error`}>
      {message}
    </span>
  ) : null;
}

/** Creates a template, or edits `initial` when given. */
export function TemplateForm({ designs, initial, email }: { designs: DesignOption[]; initial?: ApiGroup; email: EmailEditorSetup }) {
  const {
    state,
    onSubmit,
    pending,
    fieldErrors: e,
  } = useFormAction(initial ? updateTemplateAction : createTemplateAction, { resetOnSuccess: !initial });
  const designError = Object.entries(e).find(([path]) => path.startsWith("designIds"))?.[1];
  // Designs render in the order they are picked; the numbers show it.
  const [picked, setPicked] = useState<string[]>(initial?.designIds ?? []);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- clears the picks once the server action reports success
    if (state.status === "ok" && !initial) setPicked([]);
  }, [state, initial]);
  const toggle = (id: string, on: boolean) =>
    setPicked((list) => (on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id)));
  return (
    <form className={styles.formStack} onSubmit={onSubmit} noValidate>
      {state.status === "ok" && (
        <p className={`${styles.notice} ${styles.ok}`} role="status">
          Template &ldquo;{state.result.name}&rdquo; {initial ? "saved" : "created"}.
        </p>
      )}
      {initial && (
        <>
          <input type="hidden" name="id" value={initial.id} />
          <input type="hidden" name="editing" value="1" />
        </>
      )}
      {state.status === "error" && <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>}
      <div className={styles.field}>
        <label htmlFor="tpl-name">Name</label>
        <input
          id="tpl-name"
          name="name"
          defaultValue={initial?.name}
          placeholder="e.g. Data Analysis Fundamentals"
          aria-invalid={Boolean(e.name)}
        />
        <FieldError id="tpl-name" message={e.name} />
      </div>
      <fieldset className={styles.field} style={{ border: 0, padding: 0, margin: 0 }}>
        <legend style={{ fontWeight: 600, fontSize: "0.9rem" }}>Designs (in the order credentials show them)</legend>
        <div className={styles.checks}>
          {designs.map((d) => (
            <label key={d.id}>
              <input type="checkbox" checked={picked.includes(d.id)} onChange={(ev) => toggle(d.id, ev.target.checked)} /> {d.name}{" "}
              <span className={styles.muted}>({d.type})</span>
              {picked.includes(d.id) && <span className={styles.pill}>{picked.indexOf(d.id) + 1}</span>}
            </label>
          ))}
        </div>
        {picked.map((id) => (
          <input key={id} type="hidden" name="designIds" value={id} />
        ))}
        <FieldError id="tpl-designs" message={designError} />
      </fieldset>
      <div className={styles.field}>
        <label htmlFor="tpl-description">What it stands for (optional)</label>
        <textarea
          id="tpl-description"
          name="description"
          rows={2}
          defaultValue={initial?.description ?? ""}
          placeholder="Empty: “<template name>, awarded by <your organization>.”"
          aria-invalid={Boolean(e.description)}
          aria-describedby="tpl-description-hint"
        />
        <span className={styles.muted} id="tpl-description-hint">
          Shown on each credential&rsquo;s page and signed into its Open Badges credential.
        </span>
        <FieldError id="tpl-description" message={e.description} />
      </div>
      <div className={styles.field}>
        <label htmlFor="tpl-criteria">How it is earned (optional)</label>
        <textarea
          id="tpl-criteria"
          name="criteria"
          rows={2}
          defaultValue={initial?.criteria ?? ""}
          placeholder="Empty: “Awarded by <your organization>.”"
          aria-invalid={Boolean(e.criteria)}
        />
        <FieldError id="tpl-criteria" message={e.criteria} />
      </div>
      <div className={styles.field}>
        <label htmlFor="tpl-url">Learning event URL (optional)</label>
        <input
          id="tpl-url"
          name="learningEventUrl"
          type="url"
          defaultValue={initial?.learningEventUrl ?? ""}
          placeholder="https://example.com/courses/…"
          aria-invalid={Boolean(e.learningEventUrl)}
        />
        <FieldError id="tpl-url" message={e.learningEventUrl} />
      </div>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor="tpl-expiry">Expires after (optional)</label>
          <input
            id="tpl-expiry"
            name="expiryAmount"
            defaultValue={initial?.expiryPeriod?.amount ?? ""}
            inputMode="numeric"
            placeholder="e.g. 2"
            style={{ minWidth: 0, width: 120 }}
            aria-invalid={Boolean(e["expiryPeriod.amount"])}
          />
          <FieldError id="tpl-expiry" message={e["expiryPeriod.amount"] ?? e["expiryPeriod.unit"]} />
        </div>
        <div className={styles.field}>
          <label htmlFor="tpl-unit">Unit</label>
          <select id="tpl-unit" name="expiryUnit" defaultValue={initial?.expiryPeriod?.unit ?? "year"} style={{ minWidth: 0 }}>
            <option value="day">days</option>
            <option value="month">months</option>
            <option value="year">years</option>
          </select>
        </div>
      </div>
      <div className={styles.field}>
        <label htmlFor="tpl-remind">Remind recipients before expiry (optional)</label>
        <span className={styles.row} style={{ alignItems: "center", gap: 8 }}>
          <input
            id="tpl-remind"
            name="expiryReminderDays"
            defaultValue={initial?.expiryReminderDays ?? ""}
            inputMode="numeric"
            placeholder="e.g. 30"
            style={{ minWidth: 0, width: 120 }}
            aria-invalid={Boolean(e.expiryReminderDays)}
            aria-describedby="tpl-remind-hint"
          />
          <span aria-hidden="true">days before</span>
        </span>
        <span className={styles.muted} id="tpl-remind-hint">
          1 to 365 days. Each recipient with an email address gets a reminder that many days before their credential expires, with a link to
          it and to the learning event URL to renew. Empty: no reminder.
        </span>
        <FieldError id="tpl-remind" message={e.expiryReminderDays} />
      </div>
      <div className={styles.field}>
        <label htmlFor="tpl-language">Language of the email and the credential page</label>
        <select
          id="tpl-language"
          name="language"
          defaultValue={initial?.language ?? ""}
          aria-invalid={Boolean(e.language)}
          aria-describedby="tpl-language-hint"
          style={{ minWidth: 0 }}
        >
          <option value="">Each reader&rsquo;s own (email in English)</option>
          {SUPPORTED_LOCALES.map((locale) => (
            // Each name in its own language, so a reader finds theirs; lang lets screen readers say it right.
            <option key={locale} value={locale} lang={locale}>
              {LOCALE_NAMES[locale]}
            </option>
          ))}
        </select>
        <span className={styles.muted} id="tpl-language-hint">
          The built-in email and the frame around your own text (button, small print) are written in this language, and credential pages
          show it to everyone. Your own email subject and text are sent as you write them.
        </span>
        <FieldError id="tpl-language" message={e.language} />
      </div>
      <EmailEditor
        initialSubject={initial?.emailTemplate?.subject ?? ""}
        initialText={initial?.emailTemplate?.text ?? ""}
        initialPreview={email.initialPreview}
        placeholders={email.placeholders}
        userEmail={email.userEmail}
        saveErrors={e}
        hasOwnHtml={Boolean(initial?.emailTemplate?.html)}
      />
      <div>
        <button className={styles.button} type="submit" disabled={pending}>
          {initial ? (pending ? "Saving…" : "Save template") : pending ? "Creating…" : "Create template"}
        </button>
      </div>
    </form>
  );
}
