"use client";
// "Email and LinkedIn": the sender name and reply address of credential emails, their brand colour,
// and the LinkedIn company page that "Add to profile" attaches. Each wrong field says why next to it.
import { useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import { updateBrandingAction } from "./actions";

export type BrandingProps = {
  organizationName: string;
  senderName: string | null;
  contactEmail: string | null;
  brandColor: string | null;
  linkedinOrganizationId: string | null;
  /** MAIL_FROM's display name and address: what "via …" names and where mail comes from. */
  service: { name: string; address: string };
  /** The verified domain, which is the organization's website (see "Website domain"). */
  website: { domain: string; verified: boolean } | null;
};

const DEFAULT_COLOR = "#1d4ed8";
const HEX = /^#[0-9a-f]{6}$/i;

function Notice({ state }: { state: FormState<unknown> }) {
  if (state.status === "ok" && state.message)
    return (
      <p className={`${styles.notice} ${styles.ok}`} role="status">
        {state.message}
      </p>
    );
  if (state.status === "error")
    return (
      <p className={`${styles.notice} ${styles.bad}`} role="alert">
        {state.message}
      </p>
    );
  return null;
}

function Field(props: {
  id: string;
  name: string;
  label: string;
  hint: React.ReactNode;
  error: string | undefined;
  errorLead: string;
  children: (aria: { id: string; name: string; "aria-invalid": boolean; "aria-describedby": string }) => React.ReactNode;
}) {
  const describedBy = `${props.id}-hint${props.error ? ` ${props.id}-error` : ""}`;
  return (
    <div className={styles.field}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({ id: props.id, name: props.name, "aria-invalid": Boolean(props.error), "aria-describedby": describedBy })}
      {props.error && (
        <span className={styles.fieldError} id={`${props.id}-error`}>
          {props.errorLead} {props.error}
        </span>
      )}
      <span className={styles.muted} id={`${props.id}-hint`} style={{ fontSize: "0.85rem", maxWidth: 560 }}>
        {props.hint}
      </span>
    </div>
  );
}

export function BrandingForm(props: BrandingProps) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(updateBrandingAction);
  const [color, setColor] = useState(props.brandColor ?? "");
  const [sender, setSender] = useState(props.senderName ?? "");
  const shownSender = `${sender.trim() || props.organizationName} via ${props.service.name}`;
  return (
    <>
      <p className={styles.muted}>
        Website:{" "}
        {props.website?.verified ? (
          <>
            <a href={`https://${props.website.domain}`} rel="noopener noreferrer" target="_blank">
              {props.website.domain}
            </a>{" "}
            (verified; change it under “Website domain”).
          </>
        ) : props.website ? (
          <>{props.website.domain}, not verified yet: it shows on your credentials once it is (see “Website domain”).</>
        ) : (
          <>none yet. Claim your website&apos;s domain under “Website domain” below; once verified it shows on your credentials.</>
        )}
      </p>
      <Notice state={state} />
      <form className={styles.formStack} onSubmit={onSubmit} noValidate>
        <Field
          id="sender-name"
          name="senderName"
          label="Sender name"
          errorLead="The sender name"
          error={fieldErrors.senderName}
          hint={
            <>
              Credential emails come from <strong data-testid="sender-preview">“{shownSender}”</strong> &lt;{props.service.address}&gt;.
              Leave empty to use your organization&apos;s name.
            </>
          }
        >
          {(aria) => (
            <input
              {...aria}
              value={sender}
              onChange={(e) => setSender(e.target.value)}
              placeholder={props.organizationName}
              maxLength={200}
            />
          )}
        </Field>
        <Field
          id="contact-email"
          name="contactEmail"
          label="Reply-to address"
          errorLead="The reply-to address"
          error={fieldErrors.contactEmail}
          hint="When a recipient replies to a credential email, the reply goes here. Leave empty for no reply address."
        >
          {(aria) => (
            <input
              {...aria}
              type="email"
              defaultValue={props.contactEmail ?? ""}
              placeholder="registrar@example.edu"
              autoCapitalize="none"
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          id="brand-color"
          name="brandColor"
          label="Brand colour"
          errorLead="The brand colour"
          error={fieldErrors.brandColor}
          hint="A hex colour like #1d4ed8, for the button and accents of credential emails. Leave empty for the default blue."
        >
          {(aria) => (
            <div className={styles.row} style={{ alignItems: "center", gap: 8, margin: 0 }}>
              <input
                {...aria}
                value={color}
                onChange={(e) => setColor(e.target.value)}
                placeholder={DEFAULT_COLOR}
                autoCapitalize="none"
                spellCheck={false}
                style={{ minWidth: 0, width: "10ch" }}
              />
              <input
                type="color"
                aria-label="Pick the brand colour"
                value={HEX.test(color.trim()) ? color.trim().toLowerCase() : DEFAULT_COLOR}
                onChange={(e) => setColor(e.target.value)}
                style={{ width: 44, height: 38, padding: 2, minWidth: 0 }}
              />
            </div>
          )}
        </Field>
        <Field
          id="linkedin-id"
          name="linkedinOrganizationId"
          label="LinkedIn company page id"
          errorLead="The LinkedIn company page id"
          error={fieldErrors.linkedinOrganizationId}
          hint={
            <>
              With it, “Add to LinkedIn” attaches your company page (name and logo) to your recipients&apos; profiles. It is the number in
              the address of your page&apos;s admin view: open your page on LinkedIn as an admin, and copy the digits from
              linkedin.com/company/<strong>12345678</strong>/admin/ (pasting that whole address works too). Your page&apos;s name in its
              public address (linkedin.com/company/your-name) is not the id.
            </>
          }
        >
          {(aria) => (
            <input
              {...aria}
              defaultValue={props.linkedinOrganizationId ?? ""}
              placeholder="12345678"
              inputMode="numeric"
              autoCapitalize="none"
              spellCheck={false}
            />
          )}
        </Field>
        <div>
          <button className={styles.button} type="submit" disabled={pending}>
            Save
          </button>
        </div>
      </form>
    </>
  );
}
