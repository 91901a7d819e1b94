"use client";
// One verification report as the /verify page and the wallet's verify button show it: the verdict
// first, as a heading that takes keyboard focus and scrolls into view when a result arrives, then what
// the credential states, then each check with what it means for someone deciding whether to trust it.
// Everything from the document is rendered as text.
import { Fragment, useEffect, useRef } from "react";
import { CHECK_MEANINGS, CHECK_TITLES, type CheckOutcome, type Verdict, type VerificationReport } from "@/lib/verification/report";
import styles from "./verification-result.module.css";

const TONE: Record<Verdict, "good" | "bad" | "unknown"> = {
  valid: "good",
  revoked: "bad",
  expired: "bad",
  "not yet valid": "bad",
  invalid: "bad",
  unverifiable: "unknown",
};
const VERDICT_ICON = { good: "✓", bad: "✕", unknown: "!" } as const;
const OUTCOME_ICON: Record<CheckOutcome, string> = { passed: "✓", failed: "✕", warning: "!", skipped: "–" };
const OUTCOME_LABEL: Record<CheckOutcome, string> = { passed: "passed", failed: "failed", warning: "warning", skipped: "not checked" };

const day = (iso: string | null) => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
};

export function VerificationResult({ report, headingId = "verification-verdict" }: { report: VerificationReport; headingId?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new report (each check gives a new checkedAt): move focus to its verdict and bring it into view,
  // so keyboard and screen reader users land on the answer.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [report.checkedAt]);

  // Valid but signed by an issuer that proved no identity: amber, not green. An impostor that copied a
  // name must not look like the organization that proved its domain.
  const unverifiedIssuer = report.checks.some((c) => c.id === "issuer" && c.outcome === "warning");
  const tone = report.verdict === "valid" && unverifiedIssuer ? "unknown" : TONE[report.verdict];
  const trusted = report.verdict !== "invalid";
  const f = report.facts;
  const facts: [string, string | null][] = [
    ["Credential", f.achievementName ?? f.credentialName],
    ["Awarded to", f.recipientName],
    ["Issued by", f.issuerName ? `${f.issuerName}${f.issuerVerifiedDomain ? ` (verified owner of ${f.issuerVerifiedDomain})` : ""}` : null],
    ["Issuer ID", f.issuerId],
    ["Valid from", day(f.validFrom)],
    ["Valid until", f.validFrom ? (day(f.validUntil) ?? "Does not expire") : null],
    ["Revoked on", day(f.revokedAt)],
    ["Reason", f.revokedAt ? (f.revocationReason ?? "No reason was given.") : null],
  ];
  const shown = facts.filter((entry): entry is [string, string] => entry[1] !== null);

  return (
    <section className={styles.result} aria-labelledby={headingId} data-testid="verification" data-verdict={report.verdict}>
      <div className={`${styles.verdict} ${styles[tone]}`}>
        <span className={styles.verdictIcon} aria-hidden="true">
          {VERDICT_ICON[tone]}
        </span>
        <h2 id={headingId} ref={heading} tabIndex={-1} data-testid="verification-result">
          {report.headline}
        </h2>
      </div>
      {shown.length > 0 ? (
        <dl className={styles.facts} aria-label={trusted ? "What the credential states" : "What the document claims (not trustworthy)"}>
          {shown.map(([term, value]) => (
            <Fragment key={term}>
              <dt>{trusted ? term : `${term} (claimed)`}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
      <ol className={styles.checks} aria-label="Checks">
        {report.checks.map((check) => (
          <li key={check.id} className={styles.check} data-check={check.id} data-outcome={check.outcome}>
            <span className={`${styles.checkIcon} ${styles[check.outcome]}`} aria-hidden="true">
              {OUTCOME_ICON[check.outcome]}
            </span>
            <h3 className={styles.checkTitle}>
              {CHECK_TITLES[check.id]}: <span className={styles.outcome}>{OUTCOME_LABEL[check.outcome]}</span>
            </h3>
            <p className={styles.checkBody}>{check.summary}</p>
            <p className={styles.meaning}>What this checks: {CHECK_MEANINGS[check.id]}</p>
            {check.detail ? (
              <details className={styles.detail}>
                <summary>Technical detail</summary>
                <code>{check.detail}</code>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      <p className={styles.checkedAt}>
        Checked <time dateTime={report.checkedAt}>{new Date(report.checkedAt).toUTCString()}</time>
      </p>
    </section>
  );
}
