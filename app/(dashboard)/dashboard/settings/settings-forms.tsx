"use client";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import { removeLogoAction, renameOrganizationAction, uploadLogoAction } from "./actions";

function Notice({ state, field }: { state: FormState<unknown>; field?: string }) {
  if (state.status === "ok" && state.message)
    return (
      <p className={`${styles.notice} ${styles.ok}`} role="status">
        {state.message}
      </p>
    );
  if (state.status === "error" && !(field && state.fieldErrors[field]))
    return (
      <p className={`${styles.notice} ${styles.bad}`} role="alert">
        {state.message}
      </p>
    );
  return null;
}

export function RenameForm({ name }: { name: string }) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(renameOrganizationAction);
  return (
    <>
      <Notice state={state} field="name" />
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <div className={styles.field}>
          <label htmlFor="org-name">Name</label>
          <input
            id="org-name"
            name="name"
            defaultValue={name}
            aria-invalid={Boolean(fieldErrors.name)}
            aria-describedby={fieldErrors.name ? "org-name-error" : undefined}
          />
          {fieldErrors.name && (
            <span className={styles.fieldError} id="org-name-error">
              Name {fieldErrors.name}
            </span>
          )}
        </div>
        <button className={styles.button} type="submit" disabled={pending} style={{ marginTop: 24 }}>
          Save
        </button>
      </form>
    </>
  );
}

export function LogoForm({ logoUrl }: { logoUrl: string | null }) {
  const upload = useFormAction(uploadLogoAction);
  const remove = useFormAction(removeLogoAction);
  return (
    <>
      <Notice state={upload.state} field="logo" />
      <Notice state={remove.state} />
      {logoUrl ? (
        <img className={styles.logo} src={logoUrl} alt="Current logo" />
      ) : (
        <p className={styles.muted}>No logo yet. Wallet pages show your organization&apos;s name instead.</p>
      )}
      <form className={styles.form} onSubmit={upload.onSubmit} noValidate>
        <div className={styles.field}>
          <label htmlFor="logo">PNG or JPEG, up to 768 KiB</label>
          <input
            id="logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg"
            aria-invalid={Boolean(upload.fieldErrors.logo)}
            aria-describedby={upload.fieldErrors.logo ? "logo-error" : undefined}
          />
          {upload.fieldErrors.logo && (
            <span className={styles.fieldError} id="logo-error">
              The logo {upload.fieldErrors.logo}
            </span>
          )}
        </div>
        <button className={styles.button} type="submit" disabled={upload.pending} style={{ marginTop: 24 }}>
          Upload
        </button>
      </form>
      {logoUrl && (
        <form onSubmit={remove.onSubmit} style={{ marginTop: 12 }}>
          <button className={styles.danger} type="submit" disabled={remove.pending}>
            Remove logo
          </button>
        </form>
      )}
    </>
  );
}
