"use client";
// "Website domain": claim a domain, publish the line we give, check it, see plainly what was found.
import { useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import { checkDomainAction, claimDomainAction, removeDomainAction } from "./domain-actions";

/** The claim as the page hands it over: dates already written out for people. */
export type DomainClaimProps = {
  domain: string;
  proofLine: string;
  proofUrl: string;
  dnsRecordName: string;
  verified: boolean;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  lastOutcome: string | null;
  lastMessage: string | null;
  droppedReason: string | null;
  profileUrl: string;
  /** Where this service serves the organization's did-configuration.json (404 until the domain is verified). */
  didConfigurationUrl: string;
  /** Where the organization publishes it: https://<domain>/.well-known/did-configuration.json. */
  didConfigurationPublishUrl: string;
};

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

function DomainStatus({ claim }: { claim: DomainClaimProps }) {
  // aria-live: a check's outcome is announced when the page re-renders with it.
  return (
    <div aria-live="polite" data-testid="domain-status">
      {claim.verified ? (
        <p className={`${styles.notice} ${styles.ok}`}>
          <strong>✓ Verified:</strong> you are the verified owner of <strong>{claim.domain}</strong> since {claim.verifiedAt}. Your
          credentials and <a href={claim.profileUrl}>public profile</a> say so. We check again daily: keep the line published.
        </p>
      ) : (
        <p className={`${styles.notice} ${styles.warn}`}>
          <strong>Not verified.</strong>{" "}
          {claim.lastCheckedAt ? "The last check failed (below)." : "Publish the line below, then choose “Check now”."} Until then your
          credentials say “issuer identity not verified”.
        </p>
      )}
      {claim.droppedReason && !claim.verified ? <p className={`${styles.notice} ${styles.bad}`}>{claim.droppedReason}</p> : null}
      {claim.lastCheckedAt && claim.lastMessage ? (
        <p data-testid="domain-last-check">
          <span className={styles.muted}>Last check, {claim.lastCheckedAt}:</span>{" "}
          <strong>{claim.lastOutcome === "verified" ? "verified" : (OUTCOME_LABELS[claim.lastOutcome ?? ""] ?? "failed")}</strong>,{" "}
          {claim.lastMessage}
        </p>
      ) : null}
    </div>
  );
}

const OUTCOME_LABELS: Record<string, string> = {
  unreachable: "website unreachable",
  refused_address: "address refused",
  http_status: "wrong HTTP status",
  wrong_content: "token not found",
  too_large: "file too large",
  taken: "domain taken",
};

function ProofInstructions({ claim }: { claim: DomainClaimProps }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      {claim.verified ? (
        <p>
          Keep this line in the plain-text file at <code className={styles.email}>{claim.proofUrl}</code>: if it disappears, the next daily
          check removes the verification.
        </p>
      ) : (
        <p>
          To prove that <strong>{claim.domain}</strong> is yours, publish a plain-text file at{" "}
          <code className={styles.email}>{claim.proofUrl}</code> containing this line (other lines are ignored; redirects are not followed):
        </p>
      )}
      <div className={styles.secret}>
        <code data-testid="domain-proof-line">{claim.proofLine}</code>
        <button
          type="button"
          className={styles.secondary}
          onClick={() =>
            void navigator.clipboard.writeText(claim.proofLine).then(
              () => setCopied(true),
              () => window.prompt("Copy this line:", claim.proofLine),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <p className={styles.muted}>
        If you manage the domain&apos;s DNS rather than its web server, a TXT record named{" "}
        <code className={styles.email}>{claim.dnsRecordName}</code> with this line as its value proves it too.
      </p>
    </>
  );
}

/**
 * Once the domain is verified: the DIF Well-Known DID Configuration to publish on it, which lets any
 * verifier (not only this service) check that the website's owner controls the DID that signs.
 */
function DidConfiguration({ claim }: { claim: DomainClaimProps }) {
  return (
    <div data-testid="did-configuration">
      <h3>Link your signing identity to {claim.domain}</h3>
      <p>
        Your credentials are signed with your organization&apos;s DID. Publishing this file on your website lets any verifier, not only this
        service, confirm that the owner of <strong>{claim.domain}</strong> is the one who signs them.
      </p>
      <ol>
        <li>
          <a className={styles.secondary} href={claim.didConfigurationUrl} download="did-configuration.json">
            Download did-configuration.json
          </a>
        </li>
        <li>
          Publish it unchanged at <code className={styles.email}>{claim.didConfigurationPublishUrl}</code> (over HTTPS, served as{" "}
          <code className={styles.email}>application/json</code>, without a redirect).
        </li>
        <li>Download it again and replace it if you change your domain; it lasts five years.</li>
      </ol>
    </div>
  );
}

export function DomainSection({ claim }: { claim: DomainClaimProps | null }) {
  const save = useFormAction(claimDomainAction);
  const check = useFormAction(checkDomainAction);
  const remove = useFormAction(removeDomainAction);
  const error = save.fieldErrors.domain;
  return (
    <>
      <p className={styles.muted}>
        Recipients and employers see whether the issuer of a credential really is who its name says. Prove you control your website&apos;s
        domain and your credentials say “verified owner of your-domain”.
      </p>
      <Notice state={save.state} field="domain" />
      <Notice state={check.state} />
      <Notice state={remove.state} />
      {claim ? (
        <>
          <DomainStatus claim={claim} />
          <ProofInstructions claim={claim} />
          {claim.verified ? <DidConfiguration claim={claim} /> : null}
          <div className={styles.row} style={{ alignItems: "center" }}>
            <form onSubmit={check.onSubmit}>
              <button className={styles.button} type="submit" disabled={check.pending}>
                {check.pending ? "Checking…" : "Check now"}
              </button>
            </form>
            <form onSubmit={remove.onSubmit}>
              <button className={styles.danger} type="submit" disabled={remove.pending}>
                Remove domain
              </button>
            </form>
          </div>
        </>
      ) : null}
      <form className={styles.form} onSubmit={save.onSubmit} noValidate style={{ marginTop: 16 }}>
        <div className={styles.field}>
          <label htmlFor="domain">{claim ? "Change domain (starts verification again)" : "Your website’s domain"}</label>
          <input
            id="domain"
            name="domain"
            placeholder="example.edu"
            defaultValue={claim?.domain ?? ""}
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? "domain-error" : undefined}
          />
          {error && (
            <span className={styles.fieldError} id="domain-error">
              The domain {error}
            </span>
          )}
        </div>
        <button className={claim ? styles.secondary : styles.button} type="submit" disabled={save.pending} style={{ marginTop: 24 }}>
          {claim ? "Change" : "Claim domain"}
        </button>
      </form>
    </>
  );
}
