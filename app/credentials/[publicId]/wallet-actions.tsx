"use client";
// The wallet page's client parts. `MainActions` sits on the first screen under the title: a guest's
// main action is "Verify this credential"; the recipient's is Share and Add to LinkedIn profile, when
// the page offers them, or "Make public to share" for a private credential (offers.ts decides what each state offers). `RecipientTools` sits at the end of
// the page and shows only to the recipient: share links, downloads, the QR code and the embed snippet. The server renders the guest's view; the
// switch after reading the recipient mark keeps the first screen's boxes the same size (no layout
// shift) and adds the tools where nothing follows them. Nothing here holds an API token.
import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import styles from "./wallet.module.css";
import type { VerificationReport } from "@/lib/verification/report"; // a type only: nothing of lib reaches the browser
import { VerificationResult } from "@/app/verify/verification-result";
import type { RecipientToolsOffer, ShareSheet } from "./offers";
import { recordWalletEvent, useViewer, viewerOf } from "./viewer";
import { MakePublicToShare } from "./make-public-to-share";

/** Every user-visible text of the wallet's client parts, in the page's language (the "wallet" messages, app/credentials/[publicId]/layout.tsx). */
function useText() {
  const t = useTranslations("wallet");
  return {
    verify: t("verify"),
    verifying: t("verifying"),
    verifyFailed: t("verifyFailed"),
    meaning: t("meaning"),
    share: t("share"),
    addToLinkedIn: t("addToLinkedIn"),
    shareHeading: t("shareHeading"),
    copyLink: t("copyLink"),
    linkCopied: t("linkCopied"),
    linkCopiedStatus: t("linkCopiedStatus"),
    copyPrompt: t("copyPrompt"),
    downloadHeading: t("downloadHeading"),
    downloadLabel: (design: string, format: string) => t("downloadLabel", { design, format }),
    qrHeading: t("qrHeading"),
    qrDownload: t("qrDownload"),
    qrAlt: (label: string) => t("qrAlt", { label }),
    embedHeading: t("embedHeading"),
    embedHelp: t("embedHelp"),
    embedLabel: t("embedLabel"),
    copyEmbed: t("copyEmbed"),
    embedCopied: t("embedCopied"),
    embedCopiedStatus: t("embedCopiedStatus"),
  };
}

/** The main action on the first screen, and the verification result under it. */
export function MainActions(props: {
  publicId: string;
  signedInRecipient?: boolean;
  share: ShareSheet | null;
  addToLinkedInUrl: string | null;
  makePublicToShare?: boolean;
}) {
  const TEXT = useText();
  const viewer = useViewer(props.publicId, props.signedInRecipient);
  const viewed = useRef(false);
  const [verification, setVerification] = useState<VerificationReport | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const record = (eventType: string) => recordWalletEvent(props.publicId, eventType);

  useEffect(() => {
    if (viewed.current) return;
    viewed.current = true; // once per page load, also under React's development double effects
    record("credential_viewed");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per credential shown, whatever else changes
  }, [props.publicId]);

  const verify = async () => {
    if (verifying) return;
    setVerifying(true);
    setVerifyError(null);
    try {
      const response = await fetch("/api/wallet/verify", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ publicId: props.publicId, triggeredBy: viewerOf(props.publicId) }),
      });
      if (!response.ok) throw new Error(String(response.status));
      setVerification((await response.json()) as VerificationReport);
    } catch {
      setVerifyError(TEXT.verifyFailed);
    } finally {
      setVerifying(false);
    }
  };

  const share = async (sheet: ShareSheet) => {
    if (typeof navigator.share === "function") {
      try {
        await navigator.share(sheet);
        // The spec has no event for the system share sheet; the link left the page for an app the page
        // cannot name, which is what a copied link is too.
        record("credential_link_copied");
      } catch {
        /* dismissed (AbortError) or refused: nothing was shared */
      }
      return;
    }
    // No share sheet (most desktops): the network links at the end of the page.
    const heading = document.getElementById("share-heading");
    heading?.scrollIntoView({ block: "start", behavior: "smooth" });
    heading?.focus({ preventScroll: true });
  };

  const verifyButton = (primary: boolean) => (
    <button
      type="button"
      className={`${styles.button} ${primary ? styles.primary : ""}`}
      onClick={() => void verify()}
      disabled={verifying}
      data-testid="verify-button"
    >
      {verifying ? TEXT.verifying : TEXT.verify}
    </button>
  );

  // Keys per view: switching views replaces the buttons rather than moving the same ones (a moved
  // element would count as a layout shift); both views are two rows of the same height.
  const { share: sheet, addToLinkedInUrl } = props;
  const recipientView = viewer === "recipient" && sheet !== null && addToLinkedInUrl !== null;
  const privateView = viewer === "recipient" && props.makePublicToShare === true;
  return (
    <div className={styles.mainActions} data-viewer={viewer ?? "unknown"}>
      {privateView ? (
        <div key="private" className={styles.actionSlot} data-testid="main-actions">
          <MakePublicToShare publicId={props.publicId}>{verifyButton(false)}</MakePublicToShare>
        </div>
      ) : recipientView ? (
        <div key="recipient" className={styles.actionSlot} data-testid="main-actions">
          <div className={styles.actionRow}>
            <button
              type="button"
              className={`${styles.button} ${styles.primary}`}
              onClick={() => void share(sheet)}
              data-testid="share-button"
            >
              {TEXT.share}
            </button>
            <a
              className={`${styles.button} ${styles.linkedin}`}
              href={addToLinkedInUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => record("credential_added_to_linkedin_profile")}
            >
              {TEXT.addToLinkedIn}
            </a>
          </div>
          {verifyButton(false)}
        </div>
      ) : (
        <div key="guest" className={styles.actionSlot} data-testid="main-actions">
          {verifyButton(true)}
          <a className={styles.button} href="#meaning">
            {TEXT.meaning}
          </a>
        </div>
      )}
      <div aria-live="polite">{verifyError ? <p className={styles.error}>{verifyError}</p> : null}</div>
      {/* The same report as /verify, run on the credential's signed document; it takes focus and scrolls into view when it arrives. */}
      {verification ? <VerificationResult report={verification} headingId="wallet-verification-verdict" /> : null}
    </div>
  );
}

/** The recipient's tools, at the end of the page: nothing for a guest; for the recipient, the sections the page offers. */
export function RecipientTools(props: { publicId: string; signedInRecipient?: boolean; tools: RecipientToolsOffer }) {
  const TEXT = useText();
  const viewer = useViewer(props.publicId, props.signedInRecipient);
  const [copied, setCopied] = useState<"link" | "embed" | null>(null);
  const record = (eventType: string) => recordWalletEvent(props.publicId, eventType);
  if (viewer !== "recipient") return null;
  const { downloads, sharing, qr, embed } = props.tools;

  const copy = async (what: "link" | "embed", text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
      setTimeout(() => setCopied(null), 2500);
      // An embed snippet is the link put on a website: the closest of the spec's events.
      record("credential_link_copied");
    } catch {
      window.prompt(TEXT.copyPrompt, text);
    }
  };

  return (
    <div className={styles.tools} data-testid="recipient-tools">
      {sharing ? (
        <section aria-labelledby="share-heading" className={styles.card}>
          <h2 id="share-heading" className={styles.sectionTitle} tabIndex={-1}>
            {TEXT.shareHeading}
          </h2>
          <ul className={styles.shareList}>
            {sharing.targets.map((s) => (
              <li key={s.network}>
                <a
                  className={styles.button}
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-network={s.network}
                  onClick={() => record(s.eventType)}
                >
                  {s.label}
                </a>
              </li>
            ))}
            <li>
              <button type="button" className={styles.button} onClick={() => void copy("link", sharing.url)}>
                {copied === "link" ? TEXT.linkCopied : TEXT.copyLink}
              </button>
            </li>
          </ul>
          <p role="status" aria-live="polite" className={styles.visuallyHidden}>
            {copied === "link" ? TEXT.linkCopiedStatus : copied === "embed" ? TEXT.embedCopiedStatus : ""}
          </p>
        </section>
      ) : null}

      {/* Designs the renderer cannot draw for this credential have no files to download. */}
      {downloads.length > 0 ? (
        <section aria-labelledby="download-heading" className={styles.card}>
          <h2 id="download-heading" className={styles.sectionTitle}>
            {TEXT.downloadHeading}
          </h2>
          <ul className={styles.buttonList}>
            {downloads.map((d) => (
              <li key={d.png} className={styles.downloadRow}>
                {downloads.length > 1 ? <span className={styles.designName}>{d.name}</span> : null}
                <a
                  className={styles.button}
                  href={d.png}
                  download={d.pngFileName}
                  aria-label={TEXT.downloadLabel(d.name, "PNG")}
                  onClick={() => record("credential_downloaded")}
                >
                  PNG
                </a>
                <a
                  className={styles.button}
                  href={d.pdf}
                  download={d.pdfFileName}
                  aria-label={TEXT.downloadLabel(d.name, "PDF")}
                  onClick={() => record("credential_downloaded")}
                >
                  PDF
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {qr ? (
        <section aria-labelledby="qr-heading" className={styles.card}>
          <h2 id="qr-heading" className={styles.sectionTitle}>
            {TEXT.qrHeading}
          </h2>
          <figure className={styles.qr}>
            <img src={qr.svg} width={160} height={160} alt={TEXT.qrAlt(qr.label)} />
            <figcaption className={styles.qrLabel} dir="auto" data-testid="qr-label">
              {qr.label}
            </figcaption>
          </figure>
          <a className={styles.button} href={qr.png} download>
            {TEXT.qrDownload}
          </a>
        </section>
      ) : null}

      {embed ? (
        <section aria-labelledby="embed-heading" className={styles.card}>
          <h2 id="embed-heading" className={styles.sectionTitle}>
            {TEXT.embedHeading}
          </h2>
          <p className={styles.help}>{TEXT.embedHelp}</p>
          <label className={styles.visuallyHidden} htmlFor="embed-snippet">
            {TEXT.embedLabel}
          </label>
          <textarea
            id="embed-snippet"
            className={styles.snippet}
            readOnly
            rows={4}
            value={embed}
            data-testid="embed-snippet"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className={styles.button} onClick={() => void copy("embed", embed)}>
            {copied === "embed" ? TEXT.embedCopied : TEXT.copyEmbed}
          </button>
        </section>
      ) : null}
    </div>
  );
}
