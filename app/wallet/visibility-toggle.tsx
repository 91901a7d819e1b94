"use client";
// One card's "who can open it" choice: anyone with the link, or only the signed-in recipient. Saved at
// once (PATCH /api/wallet/me/credentials/{publicId}); the outcome is announced in the page's live region.
import { useTranslations } from "next-intl";
import { useState, useSyncExternalStore } from "react";
import styles from "./wallet.module.css";

export function VisibilityToggle(props: { publicId: string; title: string; visibility: "public" | "private" }) {
  const t = useTranslations("recipientWallet");
  const [visibility, setVisibility] = useState(props.visibility);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState("");
  // The radios stay disabled until React owns them: a choice made before hydration would tick the box,
  // save nothing, and be undone silently when the page hydrates.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  async function choose(next: "public" | "private") {
    if (next === visibility || pending) return;
    const previous = visibility;
    setVisibility(next);
    setPending(true);
    try {
      const answer = await fetch(`/api/wallet/me/credentials/${encodeURIComponent(props.publicId)}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ visibility: next }),
      });
      if (!answer.ok) throw new Error(String(answer.status));
      setMessage(next === "private" ? t("visibilityNowPrivate", { title: props.title }) : t("visibilityNowPublic", { title: props.title }));
    } catch {
      setVisibility(previous);
      setMessage(t("visibilityFailed"));
    } finally {
      setPending(false);
    }
  }

  const name = `visibility-${props.publicId}`;
  return (
    <fieldset className={styles.visibility} aria-busy={pending || undefined} data-testid="visibility-toggle">
      <legend>{t("visibilityLegend", { title: props.title })}</legend>
      {(["public", "private"] as const).map((value) => (
        <label key={value} className={styles.choice}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={visibility === value}
            disabled={pending || !hydrated}
            onChange={() => void choose(value)}
          />
          {value === "public" ? t("visibilityPublic") : t("visibilityPrivate")}
        </label>
      ))}
      <p className={styles.liveMessage} role="status" aria-live="polite">
        {message}
      </p>
    </fieldset>
  );
}

function noSubscription(): () => void {
  return () => {};
}
