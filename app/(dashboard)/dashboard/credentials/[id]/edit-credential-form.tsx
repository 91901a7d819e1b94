"use client";
// "Edit details" on a credential's page: the recipient's name and email, the dates and the custom
// attributes, changed with the API's PATCH rules (the action sends only what changed; see
// edit-request.ts). Each refusal shows next to its field, and a refused edit changes nothing.
import { useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../../dashboard.module.css";
import { updateCredentialAction } from "../actions";
import { ATTRIBUTE, NEW_ATTRIBUTE_TAG, NEW_ATTRIBUTE_VALUE, newAttributeKey, WAS } from "./edit-request";

export type EditableCredential = {
  id: string;
  /** Null when the credential has no recipient (no email): PATCH has no name to change then. */
  recipientId: string | null;
  name: string;
  email: string | null;
  issueDate: string;
  expiryDate: string | null;
  customAttributes: Record<string, string | null>;
};

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span className={styles.fieldError} id={id}>
      {message}
    </span>
  ) : null;
}

/** A field and its `was:` twin, which tells the action whether the person changed it. */
function Shown({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={`${WAS}${name}`} value={value} />;
}

export function EditCredentialDetails({ credential, children }: { credential: EditableCredential; children: React.ReactNode }) {
  const { state, onSubmit, pending, fieldErrors: e } = useFormAction(updateCredentialAction);
  const [editing, setEditing] = useState(false);
  const [tag, setTag] = useState("");
  // A saved edit closes the form; the page shows the new values (the action revalidated it).
  const [answered, setAnswered] = useState(state);
  if (answered !== state) {
    setAnswered(state);
    if (state.status === "ok") {
      setEditing(false);
      setTag("");
    }
  }
  const invalid = (path: string, id: string) => ({
    "aria-invalid": Boolean(e[path]),
    "aria-describedby": e[path] ? `${id}-error` : undefined,
  });
  const attributes = Object.entries(credential.customAttributes);
  const newKeyError =
    e[NEW_ATTRIBUTE_TAG] ??
    (tag.trim() && !(newAttributeKey(tag) in credential.customAttributes) ? e[`customAttributes.${newAttributeKey(tag)}`] : undefined);
  // Errors the fields do not show (the recipient's id, a conflict), in the form's notice.
  const shownPaths = new Set([
    "recipient.name",
    "recipient.email",
    "issueDate",
    "expiryDate",
    NEW_ATTRIBUTE_TAG,
    ...attributes.map(([k]) => `customAttributes.${k}`),
  ]);
  const unshown = Object.entries(e).filter(([path]) => !shownPaths.has(path) && !(newKeyError && e[path] === newKeyError));

  if (!editing) {
    return (
      <>
        {state.status === "ok" && (
          <p className={`${styles.notice} ${styles.ok}`} role="status" data-testid="edit-outcome">
            {state.result.changed ? "Changes saved." : "Nothing was changed."}
          </p>
        )}
        <button className={styles.secondary} type="button" onClick={() => setEditing(true)} style={{ marginBottom: 12 }}>
          Edit details
        </button>
        {children}
      </>
    );
  }
  return (
    <form className={styles.formStack} onSubmit={onSubmit} noValidate aria-label="Edit details" data-testid="edit-form">
      {state.status === "error" && (
        <div className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message} Nothing was changed.
          {unshown.length > 0 && (
            <ul className={styles.failures}>
              {unshown.map(([path, message]) => (
                <li key={path}>
                  {path}: {message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <input type="hidden" name="id" value={credential.id} />
      {credential.recipientId !== null ? (
        <>
          <input type="hidden" name="recipientId" value={credential.recipientId} />
          <div className={styles.field}>
            <label htmlFor="edit-name">Recipient name</label>
            <input id="edit-name" name="recipientName" defaultValue={credential.name} {...invalid("recipient.name", "edit-name")} />
            <Shown name="recipientName" value={credential.name} />
            <FieldError id="edit-name-error" message={e["recipient.name"]} />
          </div>
          <div className={styles.field}>
            <label htmlFor="edit-email">Recipient email</label>
            <input
              id="edit-email"
              name="recipientEmail"
              type="email"
              defaultValue={credential.email ?? ""}
              {...invalid("recipient.email", "edit-email")}
            />
            <Shown name="recipientEmail" value={credential.email ?? ""} />
            <FieldError id="edit-email-error" message={e["recipient.email"]} />
            <span className={styles.muted}>The name and email belong to the recipient: their other credentials show the change too.</span>
          </div>
        </>
      ) : (
        <p className={styles.muted}>
          The recipient name ({credential.name}) cannot be changed: this credential has no recipient email, and a name is changed through
          the credential&apos;s recipient (as in the API). Delete it and create it again to correct the name.
        </p>
      )}
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor="edit-issue">Issue date</label>
          <input
            id="edit-issue"
            name="issueDate"
            type="date"
            defaultValue={credential.issueDate}
            style={{ minWidth: 0 }}
            {...invalid("issueDate", "edit-issue")}
          />
          <Shown name="issueDate" value={credential.issueDate} />
          <FieldError id="edit-issue-error" message={e.issueDate} />
        </div>
        <div className={styles.field}>
          <label htmlFor="edit-expiry">Expiry date (empty: the template&apos;s setting)</label>
          <input
            id="edit-expiry"
            name="expiryDate"
            type="date"
            defaultValue={credential.expiryDate ?? ""}
            style={{ minWidth: 0 }}
            {...invalid("expiryDate", "edit-expiry")}
          />
          <Shown name="expiryDate" value={credential.expiryDate ?? ""} />
          <FieldError id="edit-expiry-error" message={e.expiryDate} />
        </div>
      </div>
      {attributes.map(([key, value], i) => {
        const path = `customAttributes.${key}`;
        return (
          <div className={styles.field} key={key}>
            <label htmlFor={`edit-attr-${i}`}>
              <code>[{key}]</code> (empty: no value)
            </label>
            <textarea
              id={`edit-attr-${i}`}
              name={`${ATTRIBUTE}${key}`}
              defaultValue={value ?? ""}
              rows={2}
              {...invalid(path, `edit-attr-${i}`)}
            />
            <Shown name={`${ATTRIBUTE}${key}`} value={value ?? ""} />
            <FieldError id={`edit-attr-${i}-error`} message={e[path]} />
          </div>
        );
      })}
      <fieldset className={styles.fieldset}>
        <legend>Add an attribute</legend>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor="edit-new-tag">Name (custom.…)</label>
            <input
              id="edit-new-tag"
              name={NEW_ATTRIBUTE_TAG}
              value={tag}
              onChange={(event) => setTag(event.target.value)}
              placeholder="grade"
              style={{ minWidth: 0 }}
              aria-invalid={Boolean(newKeyError)}
              aria-describedby={newKeyError ? "edit-new-tag-error" : undefined}
            />
            <FieldError id="edit-new-tag-error" message={newKeyError} />
          </div>
          <div className={styles.field}>
            <label htmlFor="edit-new-value">Value</label>
            <input id="edit-new-value" name={NEW_ATTRIBUTE_VALUE} style={{ minWidth: 0 }} />
          </div>
        </div>
      </fieldset>
      <div className={styles.row}>
        <button className={styles.button} type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save changes"}
        </button>
        <button className={styles.secondary} type="button" disabled={pending} onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
