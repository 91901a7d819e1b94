"use client";
// The template form's email editor: subject and text in the small formatting set, a placeholder
// picker that inserts at the cursor, a live preview of the real rendered email (written on the
// server by the code that sends it) at desktop and phone width, and a test sent to the signed-in user.
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import { sendTestEmailAction } from "./actions";
import type { EmailPreview } from "./email-draft";

export type PlaceholderOption = { tag: string; name: string };

type Props = {
  initialSubject: string;
  initialText: string;
  initialPreview: EmailPreview | null;
  placeholders: PlaceholderOption[];
  userEmail: string;
  /** Errors the last save reported, keyed by field path. */
  saveErrors: Record<string, string>;
  /** The template's saved HTML body set through the API, which saving this form replaces. */
  hasOwnHtml: boolean;
};

const PREVIEW_DELAY_MS = 300;
const WIDTHS = { desktop: "100%", phone: "390px" } as const;

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span className={styles.fieldError} id={`${id}-error`}>
      {message}
    </span>
  ) : null;
}

export function EmailEditor({ initialSubject, initialText, initialPreview, placeholders, userEmail, saveErrors, hasOwnHtml }: Props) {
  const subjectRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const lastFocused = useRef<"subject" | "text">("text");
  const [preview, setPreview] = useState<EmailPreview | null>(initialPreview);
  const [width, setWidth] = useState<keyof typeof WIDTHS>("desktop");
  const [testState, setTestState] = useState<FormState | null>(null);
  const [sending, startSending] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(0);

  const formData = () => {
    const form = textRef.current?.form;
    return form ? new FormData(form) : null;
  };

  const refresh = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const data = textRef.current?.form ? new FormData(textRef.current.form) : null;
      if (!data) return;
      // Only the newest answer is shown: an older one may arrive after it.
      const ticket = ++latest.current;
      void fetch("/dashboard/templates/email-preview", { method: "POST", body: data })
        .then((response) => (response.ok ? (response.json() as Promise<EmailPreview>) : null))
        .then((result) => {
          if (ticket === latest.current && result) setPreview(result);
        })
        // A failed preview keeps the last one; the next keystroke asks again.
        .catch(() => undefined);
    }, PREVIEW_DELAY_MS);
  }, []);

  // The template's name, language and first design shape the preview too: any change in the form refreshes it.
  useEffect(() => {
    const form = textRef.current?.form;
    if (!form) return;
    const onReset = () => setTimeout(refresh, 0);
    form.addEventListener("input", refresh);
    form.addEventListener("change", refresh);
    form.addEventListener("reset", onReset);
    return () => {
      form.removeEventListener("input", refresh);
      form.removeEventListener("change", refresh);
      form.removeEventListener("reset", onReset);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [refresh]);

  const insert = (tag: string) => {
    const field = lastFocused.current === "subject" ? subjectRef.current : textRef.current;
    if (!field || !tag) return;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    field.setRangeText(`[${tag}]`, start, end, "end");
    field.focus();
    // A programmatic change fires no input event of its own.
    field.dispatchEvent(new Event("input", { bubbles: true }));
  };

  const sendTest = () => {
    const data = formData();
    if (!data) return;
    startSending(async () => setTestState(await sendTestEmailAction(data)));
  };

  // The preview checks the text as saving would, as it is typed; until it has, the last save's errors show.
  const errors = preview?.fieldErrors ?? saveErrors;
  const subjectError = errors["emailTemplate.subject"];
  const textError = errors["emailTemplate.text"];
  const testError = testState?.status === "error" ? (Object.values(testState.fieldErrors)[0] ?? testState.message) : null;

  return (
    <fieldset className={styles.field} style={{ border: 0, padding: 0, margin: 0 }} data-testid="email-editor">
      <legend style={{ fontWeight: 600, fontSize: "0.9rem" }}>Email to recipients</legend>
      {hasOwnHtml && (
        <p className={`${styles.notice} ${styles.bad}`}>
          This template has its own HTML email, set through the API. Saving this form replaces it with the text below in your branded email.
        </p>
      )}
      <div className={styles.field}>
        <label htmlFor="tpl-subject">Subject (optional; a default is used otherwise)</label>
        <input
          id="tpl-subject"
          ref={subjectRef}
          name="emailSubject"
          defaultValue={initialSubject}
          placeholder="Your certificate for [group.name]"
          onFocus={() => (lastFocused.current = "subject")}
          aria-invalid={Boolean(subjectError)}
          aria-describedby={subjectError ? "tpl-subject-error" : undefined}
        />
        <FieldError id="tpl-subject" message={subjectError} />
      </div>
      <div className={styles.field}>
        <label htmlFor="tpl-text">Text (optional; the built-in words otherwise)</label>
        <textarea
          id="tpl-text"
          ref={textRef}
          name="emailText"
          rows={7}
          defaultValue={initialText}
          placeholder={"Hello [recipient.name],\n\nwell done on **[group.name]**! Read more on [our site](https://example.com)."}
          onFocus={() => (lastFocused.current = "text")}
          aria-invalid={Boolean(textError)}
          aria-describedby={`tpl-text-hint${textError ? " tpl-text-error" : ""}`}
        />
        <FieldError id="tpl-text" message={textError} />
        <span className={styles.muted} id="tpl-text-hint">
          A blank line starts a new paragraph. <code>**bold**</code>, links as <code>[words](https://…)</code> (http, https or mailto). It
          is sent inside your branded email, with your logo, the certificate and the button to the credential.
        </span>
      </div>
      <div className={styles.row} style={{ alignItems: "center" }}>
        <label htmlFor="tpl-placeholder">Insert a placeholder</label>
        <select
          id="tpl-placeholder"
          value=""
          onChange={(ev) => insert(ev.target.value)}
          // Picking must not move focus bookkeeping: the field typed in last receives the placeholder.
          style={{ minWidth: 0 }}
        >
          <option value="">Choose…</option>
          {placeholders.map((p) => (
            <option key={p.tag} value={p.tag}>
              {p.name} [{p.tag}]
            </option>
          ))}
        </select>
      </div>

      <div className={styles.field} data-testid="email-preview">
        <div className={styles.row} style={{ alignItems: "center", justifyContent: "space-between" }}>
          <strong>Preview with sample values</strong>
          <span role="group" aria-label="Preview width" className={styles.row} style={{ gap: 6 }}>
            {(["desktop", "phone"] as const).map((w) => (
              <button
                key={w}
                type="button"
                className={styles.secondary}
                aria-pressed={width === w}
                onClick={() => setWidth(w)}
                style={width === w ? { fontWeight: 700, borderColor: "currentColor" } : undefined}
              >
                {w === "desktop" ? "Desktop" : "Phone"}
              </button>
            ))}
          </span>
        </div>
        <p className={styles.muted} style={{ margin: 0 }}>
          Subject: <strong data-testid="email-subject">{preview?.subject ?? ""}</strong>
        </p>
        {/* The rendered email, isolated: no scripts, no access to this page. */}
        <iframe
          title={`Email preview, ${width === "desktop" ? "desktop" : "phone"} width`}
          sandbox=""
          srcDoc={preview?.html ?? ""}
          data-width={width}
          style={{
            width: WIDTHS[width],
            maxWidth: "100%",
            height: 640,
            border: "1px solid var(--border)",
            borderRadius: 8,
            background: "#f3f4f6",
          }}
        />
        <details>
          <summary>Plain-text part</summary>
          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", margin: 0 }} data-testid="email-text">
            {preview?.text ?? ""}
          </pre>
        </details>
      </div>

      <div>
        <button className={styles.secondary} type="button" onClick={sendTest} disabled={sending}>
          {sending ? "Sending…" : `Send a test to me (${userEmail})`}
        </button>
        {testState?.status === "ok" && (
          <p className={`${styles.notice} ${styles.ok}`} role="status" style={{ marginTop: 8 }}>
            {testState.message}
          </p>
        )}
        {testError && (
          <p className={`${styles.notice} ${styles.bad}`} role="alert" style={{ marginTop: 8 }}>
            {testError}
          </p>
        )}
      </div>
    </fieldset>
  );
}
