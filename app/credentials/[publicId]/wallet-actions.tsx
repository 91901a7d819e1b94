"use client";
// The wallet page's only client script: it marks the recipient's browser, records events, and runs
// the share, download, copy and verify actions. It never holds an API token.
import { useEffect, useRef, useState } from "react";
import styles from "./wallet.module.css";
import type { VerificationReport } from "@/lib/verification/report"; // a type only: nothing of lib reaches the browser
import { VerificationResult } from "@/app/verify/verification-result";
import type { ShareTarget } from "./share-links";

type Design = { name: string; png: string; pdf: string; pngFileName: string; pdfFileName: string };
const markKey = (publicId: string) => `cis.recipient.${publicId}`;

/** Reads (and on `?recipient=true`, sets) this browser's recipient mark, then drops the parameter from the address bar. */
function whoIsVisiting(publicId: string): "recipient" | "guest" {
  const url = new URL(window.location.href);
  try {
    if (url.searchParams.get("recipient") === "true") window.localStorage.setItem(markKey(publicId), "1");
  } catch {
    /* storage unavailable (private mode): the visitor counts as a guest */
  }
  if (url.searchParams.has("recipient")) {
    url.searchParams.delete("recipient");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }
  try {
    return window.localStorage.getItem(markKey(publicId)) === "1" ? "recipient" : "guest";
  } catch {
    return "guest";
  }
}

export function WalletActions(props: {
  publicId: string;
  /** A revoked credential offers nothing to download or share: only its verification. */
  revoked: boolean;
  url: string;
  designs: Design[];
  shareTargets: ShareTarget[];
  addToLinkedInUrl: string;
}) {
  const who = useRef<"recipient" | "guest">("guest");
  const viewed = useRef(false);
  const [copied, setCopied] = useState(false);
  const [verification, setVerification] = useState<VerificationReport | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);

  const record = (eventType: string) => {
    void fetch("/api/wallet/events", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ publicId: props.publicId, eventType, triggeredBy: who.current }),
      keepalive: true,
    }).catch(() => undefined);
  };

  useEffect(() => {
    who.current = whoIsVisiting(props.publicId);
    if (!viewed.current) {
      viewed.current = true; // once per page load, also under React's development double effects
      record("credential_viewed");
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.publicId]);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(props.url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
      record("credential_link_copied");
    } catch {
      window.prompt("Copy this link:", props.url);
    }
  };

  const verify = async () => {
    setVerifying(true);
    setVerifyError(null);
    try {
      const response = await fetch("/api/wallet/verify", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ publicId: props.publicId, triggeredBy: who.current }),
      });
      if (!response.ok) throw new Error(String(response.status));
      setVerification((await response.json()) as VerificationReport);
    } catch {
      setVerifyError("The credential could not be checked right now. Try again in a moment.");
    } finally {
      setVerifying(false);
    }
  };

  return (
    <div className={styles.actions}>
      {/* Designs the renderer cannot draw for this credential have no files to download. */}
      {!props.revoked && props.designs.length > 0 ? (
        <section aria-labelledby="download-heading">
          <h2 id="download-heading" className={styles.sectionTitle}>Download</h2>
          <ul className={styles.buttonList}>
            {props.designs.map((d) => (
              <li key={d.png} className={styles.downloadRow}>
                {props.designs.length > 1 ? <span className={styles.designName}>{d.name}</span> : null}
                <a className={styles.button} href={d.png} download={d.pngFileName} onClick={() => record("credential_downloaded")}>
                  PNG
                </a>
                <a className={styles.button} href={d.pdf} download={d.pdfFileName} onClick={() => record("credential_downloaded")}>
                  PDF
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {props.revoked ? null : (
        <section aria-labelledby="share-heading">
          <h2 id="share-heading" className={styles.sectionTitle}>Share</h2>
          <a className={`${styles.button} ${styles.primary}`} href={props.addToLinkedInUrl} target="_blank" rel="noopener noreferrer" onClick={() => record("credential_added_to_linkedin_profile")}>
            Add to LinkedIn profile
          </a>
          <ul className={styles.shareList}>
            {props.shareTargets.map((s) => (
              <li key={s.network}>
                <a className={styles.button} href={s.href} target="_blank" rel="noopener noreferrer" data-network={s.network} onClick={() => record(s.eventType)}>
                  {s.label}
                </a>
              </li>
            ))}
            <li>
              <button type="button" className={styles.button} onClick={copyLink}>
                {copied ? "Link copied" : "Copy link"}
              </button>
            </li>
          </ul>
          <p role="status" aria-live="polite" className={styles.visuallyHidden}>
            {copied ? "The link to this credential was copied." : ""}
          </p>
        </section>
      )}

      <section aria-labelledby="verify-heading" className={styles.verify}>
        <h2 id="verify-heading" className={styles.sectionTitle}>Verification</h2>
        <button type="button" className={styles.button} onClick={verify} disabled={verifying}>
          {verifying ? "Checking…" : "Verify this credential"}
        </button>
        <div aria-live="polite">{verifyError ? <p className={styles.error}>{verifyError}</p> : null}</div>
        {/* The same report as /verify, run on the credential's signed document; it takes focus when it arrives. */}
        {verification ? <VerificationResult report={verification} headingId="wallet-verification-verdict" /> : null}
      </section>
    </div>
  );
}
