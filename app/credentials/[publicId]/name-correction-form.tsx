"use client";
// The recipient's name correction form on a credential's wallet page (name-correction.tsx decides who
// sees it). It posts to the wallet's own JSON route with the session cookie; its text comes from the
// server in the page's language, and each refusal is said in words next to the field it concerns.
import { startTransition, useEffect, useId, useState } from "react";
import { formText } from "@/app/form-text";
import styles from "./name-correction.module.css";
import walletStyles from "./wallet.module.css";
import { useViewer } from "./viewer";

export type NameCorrectionText = {
  action: string;
  intro: string;
  currentName: string;
  nameLabel: string;
  noteLabel: string;
  submit: string;
  sending: string;
  cancel: string;
  sent: string;
  signInFirst: string;
  signIn: string;
  errorName: string;
  errorNote: string;
  errorConflict: string;
  errorSession: string;
  errorGeneric: string;
};

type Errors = { name?: string; note?: string; form?: string };

/** What a refusal of the wallet route means to the person filling the form. */
async function errorsOf(response: Response, text: NameCorrectionText): Promise<Errors> {
  if (response.status === 401) return { form: text.errorSession };
  if (response.status === 409) return { form: text.errorConflict };
  if (response.status === 400) {
    const body = (await response.json().catch(() => null)) as { error?: { details?: { path: string }[] } } | null;
    const paths = new Set((body?.error?.details ?? []).map((d) => d.path));
    const errors: Errors = {};
    if (paths.has("name")) errors.name = text.errorName;
    if (paths.has("note")) errors.note = text.errorNote;
    return errors.name || errors.note ? errors : { form: text.errorGeneric };
  }
  return { form: text.errorGeneric };
}

export function NameCorrectionForm({ publicId, currentName, text }: { publicId: string; currentName: string; text: NameCorrectionText }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  // /wallet's cards link here with #name-correction: the form is what the recipient came for.
  useEffect(() => {
    if (window.location.hash === "#name-correction") startTransition(() => setOpen(true));
  }, []);

  if (sent) {
    return (
      <p className={styles.sent} role="status" data-testid="name-correction-sent">
        {text.sent}
      </p>
    );
  }
  if (!open) {
    return (
      <div>
        <button className={walletStyles.button} type="button" onClick={() => setOpen(true)} data-testid="name-correction-open">
          {text.action}
        </button>
      </div>
    );
  }

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = formText(form, "name");
    const note = formText(form, "note").trim();
    // Said here rather than after a round trip: the server refuses the same.
    if (name.trim() === "" || name.trim() === currentName) return setErrors({ name: text.errorName });
    setPending(true);
    setErrors({});
    try {
      const response = await fetch(`/api/wallet/me/credentials/${encodeURIComponent(publicId)}/correction-requests`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(note ? { name, note } : { name }),
      });
      if (response.status === 201) setSent(true);
      else setErrors(await errorsOf(response, text));
    } catch {
      setErrors({ form: text.errorGeneric });
    } finally {
      setPending(false);
    }
  };

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate data-testid="name-correction-form">
      <p>{text.intro}</p>
      <p className={styles.current}>{text.currentName}</p>
      {errors.form && (
        <p className={styles.error} role="alert">
          {errors.form}
        </p>
      )}
      <div className={styles.field}>
        <label htmlFor={`${id}-name`}>{text.nameLabel}</label>
        <input
          id={`${id}-name`}
          name="name"
          maxLength={200}
          autoComplete="name"
          dir="auto"
          required
          autoFocus
          aria-invalid={Boolean(errors.name)}
          aria-describedby={errors.name ? `${id}-name-error` : undefined}
          onChange={() => errors.name && setErrors({ ...errors, name: undefined })}
        />
        {errors.name && (
          <p className={styles.error} id={`${id}-name-error`}>
            {errors.name}
          </p>
        )}
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-note`}>{text.noteLabel}</label>
        <textarea
          id={`${id}-note`}
          name="note"
          maxLength={1000}
          dir="auto"
          aria-invalid={Boolean(errors.note)}
          aria-describedby={errors.note ? `${id}-note-error` : undefined}
          onChange={() => errors.note && setErrors({ ...errors, note: undefined })}
        />
        {errors.note && (
          <p className={styles.error} id={`${id}-note-error`}>
            {errors.note}
          </p>
        )}
      </div>
      <div className={styles.row}>
        <button className={`${walletStyles.button} ${walletStyles.primary}`} type="submit" disabled={pending}>
          {pending ? text.sending : text.submit}
        </button>
        <button className={walletStyles.button} type="button" onClick={() => (setOpen(false), setErrors({}))}>
          {text.cancel}
        </button>
      </div>
    </form>
  );
}

/** To a browser with the recipient mark but no wallet session: sign in first (the wallet's page has the form). */
export function SignInToCorrect({ publicId, text }: { publicId: string; text: NameCorrectionText }) {
  const viewer = useViewer(publicId);
  if (viewer !== "recipient") return null;
  return (
    <section className={styles.correction} aria-label={text.action} data-testid="name-correction-sign-in">
      <p>{text.signInFirst}</p>
      <div>
        <a className={walletStyles.button} href="/wallet">
          {text.signIn}
        </a>
      </div>
    </section>
  );
}
