"use client";
// The /verify page's form: a URL or JSON typed or pasted, or a PNG or PDF chosen or dropped; sent to
// POST /api/verify, and the report shown below (VerificationResult moves focus to its verdict).
import { useTranslations } from "next-intl";
import { useRef, useState, type DragEvent, type FormEvent } from "react";
import type { VerificationReport } from "@/lib/verification/report";
import { VerificationResult } from "./verification-result";
import styles from "./verify.module.css";

type Sent = { body: BodyInit; contentType: string };

/** JSON text starts with `{`; anything else is taken for a URL. */
function requestFor(text: string): Sent {
  const trimmed = text.trim();
  return { body: JSON.stringify(trimmed.startsWith("{") ? { json: trimmed } : { url: trimmed }), contentType: "application/json" };
}

export function VerifyForm() {
  const t = useTranslations("verifyPage");
  const [text, setText] = useState("");
  const [report, setReport] = useState<VerificationReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const send = async (sent: Sent) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/verify", { method: "POST", headers: { "Content-Type": sent.contentType }, body: sent.body });
      const body = (await response.json().catch(() => null)) as (VerificationReport & { error?: { message: string } }) | null;
      if (!response.ok || !body || body.error) {
        setReport(null);
        setError(body?.error?.message ?? t("failedStatus", { status: response.status }));
        return;
      }
      setReport(body);
    } catch {
      setError(t("noAnswer"));
    } finally {
      setBusy(false);
    }
  };

  const sendFile = async (file: File) => {
    const name = file.name.toLowerCase();
    if (file.type === "application/pdf" || name.endsWith(".pdf")) return send({ body: file, contentType: "application/pdf" });
    if (file.type === "image/png" || name.endsWith(".png")) return send({ body: file, contentType: "image/png" });
    // A JSON file is read as text, like a paste.
    if (file.type === "application/json" || name.endsWith(".json")) return send(requestFor(await file.text()));
    setReport(null);
    setError(t("wrongFile"));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === "") {
      setReport(null);
      setError(t("empty"));
      return;
    }
    void send(requestFor(text));
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void sendFile(file);
  };

  return (
    <>
      <form className={styles.form} onSubmit={onSubmit} aria-describedby="verify-hint">
        <label htmlFor="verify-input" className={styles.label}>
          {t("inputLabel")}
        </label>
        <p id="verify-hint" className={styles.hint}>
          {t("inputHint")}
        </p>
        <textarea
          id="verify-input"
          className={styles.textarea}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          dir="auto"
          autoComplete="off"
        />
        <button type="submit" className={styles.submit} disabled={busy}>
          {busy ? t("checking") : t("submit")}
        </button>
        <p className={styles.or}>{t("or")}</p>
        <div
          className={`${styles.drop} ${dragging ? styles.dropActive : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="drop-zone"
        >
          <span>{t("drop")}</span>
          <label className={styles.fileLabel}>
            {t("choose")}
            <input
              ref={fileInput}
              className={styles.fileInput}
              type="file"
              accept="application/pdf,.pdf,image/png,.png,application/json,.json"
              aria-label={t("chooseLabel")}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void sendFile(file);
                e.target.value = "";
              }}
            />
          </label>
        </div>
      </form>
      <div aria-live="polite">
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
      </div>
      {report ? <VerificationResult report={report} /> : null}
    </>
  );
}
