"use client";
// A private credential's page, for its signed-in recipient: instead of Share and Add to LinkedIn (a
// private link opens for nobody else), one button that makes the credential public
// (PATCH /api/wallet/me/credentials/{publicId}, the wallet's own endpoint) and then reloads the page,
// which then offers sharing like any public credential's.
import { useTranslations } from "next-intl";
import { useState } from "react";
import styles from "./wallet.module.css";

export function MakePublicToShare(props: { publicId: string; children: React.ReactNode }) {
  const t = useTranslations("walletPrivateSharing");
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function makePublic() {
    if (pending) return;
    setPending(true);
    setFailed(false);
    try {
      const answer = await fetch(`/api/wallet/me/credentials/${encodeURIComponent(props.publicId)}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ visibility: "public" }),
      });
      if (!answer.ok) throw new Error(String(answer.status));
      window.location.reload();
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  // Rows of the main actions' grid: this button where Share was, the given verify button under it,
  // then why (and, after a failure, what went wrong).
  return (
    <>
      <button
        type="button"
        className={`${styles.button} ${styles.primary}`}
        onClick={() => void makePublic()}
        disabled={pending}
        aria-describedby={`private-note-${props.publicId}`}
        data-testid="make-public-to-share"
      >
        {pending ? t("makingPublic") : t("makePublic")}
      </button>
      {props.children}
      <p id={`private-note-${props.publicId}`} className={styles.privateNote}>
        {t("privateNote")}
      </p>
      <p role="status" aria-live="polite" className={styles.error}>
        {failed ? t("makePublicFailed") : ""}
      </p>
    </>
  );
}
