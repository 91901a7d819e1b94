"use client";
// The /verify page's form: a URL or JSON typed or pasted, or a PNG or PDF chosen or dropped; sent to
// POST /api/verify, and the report shown below (VerificationResult moves focus to its verdict).
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
        setError(body?.error?.message ?? `The check could not be run (HTTP ${response.status}). Try again in a moment.`);
        return;
      }
      setReport(body);
    } catch {
      setError("The check could not be run: the server did not answer. Try again in a moment.");
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
    setError("Choose the credential’s PDF, its PNG image (a .png file) or its JSON (.json).");
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === "") {
      setReport(null);
      setError("Paste the credential’s link or its JSON, or choose its PDF or PNG image.");
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
          Credential link or JSON
        </label>
        <p id="verify-hint" className={styles.hint}>
          For example https://…/credentials/…/credential.json, the wallet page&rsquo;s link, or the whole JSON document.
        </p>
        <textarea
          id="verify-input"
          className={styles.textarea}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit" className={styles.submit} disabled={busy}>
          {busy ? "Checking…" : "Verify"}
        </button>
        <p className={styles.or}>or</p>
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
          <span>Drop the credential&rsquo;s PDF or PNG image here</span>
          <label className={styles.fileLabel}>
            Choose a PDF or PNG…
            <input
              ref={fileInput}
              className={styles.fileInput}
              type="file"
              accept="application/pdf,.pdf,image/png,.png,application/json,.json"
              aria-label="Choose the credential's PDF or PNG image"
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
