"use client";
// The /wallet section where a recipient sets up their public profile: a handle (the address), a
// display name and the public switch, saved with PATCH /api/wallet/me/profile. The server's field
// errors are shown next to their fields in the page's language; the outcome is announced in a live
// region. A profile stays private until the switch is on (lib/wallet-profiles).
import { useId, useState, type FormEvent } from "react";
import { useTranslations } from "next-intl";
import type { WalletProfileView } from "@/lib/wallet-profiles/schema";
import styles from "./profile-settings.module.css";

type FieldErrors = { handle?: string; displayName?: string };
type Outcome = { kind: "saved" } | { kind: "error"; message: string } | null;

type ErrorBody = { error?: { code?: string; details?: { path?: string; message?: string }[] } };

export function ProfileSettings({ initial, profilesPrefix }: { initial: WalletProfileView; profilesPrefix: string }) {
  const t = useTranslations("walletProfile");
  const id = useId();
  const [profile, setProfile] = useState(initial);
  const [handle, setHandle] = useState(initial.handle ?? "");
  const [displayName, setDisplayName] = useState(initial.displayName ?? "");
  const [isPublic, setIsPublic] = useState(initial.public);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [saving, setSaving] = useState(false);

  /** The server's details, in this page's words: each field's problem, by what the server said. */
  function fieldErrors(body: ErrorBody): FieldErrors {
    const found: FieldErrors = {};
    for (const detail of body.error?.details ?? []) {
      const required = detail.message?.includes("required") ?? false;
      if (detail.path === "handle") {
        found.handle = required
          ? t("errorNeedsHandle")
          : detail.message?.includes("taken")
            ? t("errorHandleTaken")
            : t("errorHandleFormat");
      } else if (detail.path === "displayName") {
        found.displayName = required ? t("errorNeedsDisplayName") : t("errorDisplayName");
      }
    }
    return found;
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setOutcome(null);
    const body = {
      ...(handle.trim() ? { handle: handle.trim() } : {}),
      ...(displayName.trim() ? { displayName } : {}),
      public: isPublic,
    };
    try {
      const response = await fetch("/api/wallet/me/profile", {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (response.ok) {
        const saved = (await response.json()) as WalletProfileView;
        setProfile(saved);
        setHandle(saved.handle ?? "");
        setDisplayName(saved.displayName ?? "");
        setIsPublic(saved.public);
        setErrors({});
        setOutcome({ kind: "saved" });
        return;
      }
      const problem = (await response.json().catch(() => ({}))) as ErrorBody;
      const found = response.status === 400 ? fieldErrors(problem) : {};
      setErrors(found);
      const message = response.status === 401 ? t("errorSignedOut") : (Object.values(found)[0] ?? t("errorGeneric"));
      setOutcome({ kind: "error", message });
    } catch {
      setOutcome({ kind: "error", message: t("errorGeneric") });
    } finally {
      setSaving(false);
    }
  }

  const handleHelp = `${id}-handle-help`;
  const handleError = `${id}-handle-error`;
  const nameHelp = `${id}-name-help`;
  const nameError = `${id}-name-error`;
  return (
    <section className={styles.card} aria-labelledby={`${id}-heading`} data-testid="profile-settings">
      <h2 id={`${id}-heading`} className={styles.heading}>
        {t("settingsHeading")}
      </h2>
      <p className={styles.intro}>{t("settingsIntro")}</p>
      <form onSubmit={(e) => void save(e)} noValidate className={styles.form}>
        <div className={styles.field}>
          <label htmlFor={`${id}-handle`}>{t("handleLabel")}</label>
          <div className={styles.handleRow} dir="ltr">
            <span className={styles.prefix} aria-hidden="true">
              {profilesPrefix}
            </span>
            <input
              id={`${id}-handle`}
              name="handle"
              value={handle}
              onChange={(e) => setHandle(e.target.value)}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={40}
              aria-invalid={errors.handle ? true : undefined}
              aria-describedby={errors.handle ? `${handleError} ${handleHelp}` : handleHelp}
            />
          </div>
          {errors.handle ? (
            <p id={handleError} className={styles.error} data-testid="handle-error">
              {errors.handle}
            </p>
          ) : null}
          <p id={handleHelp} className={styles.help}>
            {t("handleHelp")}
          </p>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-name`}>{t("displayNameLabel")}</label>
          <input
            id={`${id}-name`}
            name="displayName"
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            autoComplete="name"
            maxLength={100}
            aria-invalid={errors.displayName ? true : undefined}
            aria-describedby={errors.displayName ? `${nameError} ${nameHelp}` : nameHelp}
          />
          {errors.displayName ? (
            <p id={nameError} className={styles.error} data-testid="display-name-error">
              {errors.displayName}
            </p>
          ) : null}
          <p id={nameHelp} className={styles.help}>
            {t("displayNameHelp")}
          </p>
        </div>
        <label className={styles.switch}>
          <input type="checkbox" name="public" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />
          <span>{t("publicLabel")}</span>
        </label>
        <div className={styles.actions}>
          <button type="submit" className={styles.button} disabled={saving}>
            {saving ? t("saving") : t("save")}
          </button>
          {profile.url ? (
            <a href={profile.url} className={styles.viewLink} data-testid="profile-link">
              {t("viewProfile")}
            </a>
          ) : null}
        </div>
        <p
          role="status"
          aria-live="polite"
          className={outcome?.kind === "error" ? styles.statusError : styles.status}
          data-testid="profile-status"
        >
          {outcome === null ? "" : outcome.kind === "saved" ? t("saved") : outcome.message}
        </p>
      </form>
    </section>
  );
}
