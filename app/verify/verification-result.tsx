"use client";
// One verification report as the /verify page and the wallet's verify button show it: the verdict
// first, as a heading that takes keyboard focus and scrolls into view when a result arrives, then what
// the credential states, then each check with what it means for someone deciding whether to trust it.
// Everything from the document is rendered as text. Words are the "verification" messages of the
// nearest NextIntlClientProvider (the wallet's reader language; /verify is English). The report's own
// sentences (headline, summaries) are English: in another language the verdict and each outcome are
// said from the report's verdict, outcomes and facts instead, and the English detail stays behind
// "Technical detail".
import { Fragment, useEffect, useRef } from "react";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import type { Check, CheckId, CheckOutcome, Verdict, VerificationReport } from "@/lib/verification/report";
import styles from "./verification-result.module.css";

const TONE: Record<Verdict, "good" | "bad" | "unknown"> = {
  valid: "good",
  revoked: "bad",
  suspended: "bad",
  expired: "bad",
  "not yet valid": "bad",
  invalid: "bad",
  unverifiable: "unknown",
};
const VERDICT_ICON = { good: "✓", bad: "✕", unknown: "!" } as const;
const OUTCOME_ICON: Record<CheckOutcome, string> = { passed: "✓", failed: "✕", warning: "!", skipped: "–" };
const OUTCOME_KEY = { passed: "outcomePassed", failed: "outcomeFailed", warning: "outcomeWarning", skipped: "outcomeSkipped" } as const;
const TITLE_KEY = {
  format: "titleFormat",
  signature: "titleSignature",
  issuer: "titleIssuer",
  status: "titleStatus",
  validity: "titleValidity",
} as const satisfies Record<CheckId, string>;
const MEANING_KEY = {
  format: "meaningFormat",
  signature: "meaningSignature",
  issuer: "meaningIssuer",
  status: "meaningStatus",
  validity: "meaningValidity",
} as const satisfies Record<CheckId, string>;

type T = ReturnType<typeof useTranslations<"verification">>;
type Followups = ReturnType<typeof useTranslations<"trustFollowups">>;

/** A check's summary said in the reader's language, from its id and outcome (the report's sentence is English). */
function translatedSummary(t: T, followups: Followups, check: Check, verdict: Verdict): string {
  if (check.outcome === "skipped") return t("summarySkipped");
  switch (check.id) {
    case "format":
      return check.outcome === "passed" ? t("summaryFormatPassed") : t("summaryFormatFailed");
    case "signature":
      return check.outcome === "passed" ? t("summarySignaturePassed") : t("summarySignatureFailed");
    case "issuer":
      return check.outcome === "passed"
        ? t("summaryIssuerPassed")
        : check.outcome === "warning"
          ? t("summaryIssuerWarning")
          : t("summaryIssuerFailed");
    case "status":
      if (check.outcome === "passed") return t("summaryStatusPassed");
      if (check.outcome === "warning") return t("summaryStatusWarning");
      if (verdict === "revoked") return t("summaryStatusRevoked");
      return verdict === "suspended" ? followups("summaryStatusSuspended") : t("summaryStatusFailed");
    case "validity":
      return check.outcome === "passed" ? t("summaryValidityPassed") : t("summaryValidityFailed");
  }
}

export function VerificationResult({
  report,
  headingId = "verification-verdict",
  nested = false,
}: {
  report: VerificationReport;
  headingId?: string;
  /** A credential's report inside a presentation's: one heading level down, and it does not take focus. */
  nested?: boolean;
}) {
  const t = useTranslations("verification");
  const trust = useTranslations("trustVerifier");
  const followups = useTranslations("trustFollowups");
  const format = useFormatter();
  const english = useLocale() === "en";
  const heading = useRef<HTMLHeadingElement>(null);
  // A new report (each check gives a new checkedAt): move focus to its verdict and bring it into view,
  // so keyboard and screen reader users land on the answer.
  useEffect(() => {
    if (nested) return;
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [report.checkedAt, nested]);
  const Heading = nested ? "h3" : "h2";
  const CheckHeading = nested ? "h4" : "h3";

  // The calendar day of an ISO date-time, in UTC like every credential date, in the reader's language.
  const day = (iso: string | null) => {
    if (!iso) return null;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.dateTime(date, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  };

  // Valid but signed by an issuer that proved no identity: amber, not green. An impostor that copied a
  // name must not look like the organization that proved its domain.
  const unverifiedIssuer = report.checks.some((c) => c.id === "issuer" && c.outcome === "warning");
  const tone = report.verdict === "valid" && unverifiedIssuer ? "unknown" : TONE[report.verdict];
  const trusted = report.verdict !== "invalid";
  const f = report.facts;
  const facts: [string, string | null][] = [
    [t("factCredential"), f.achievementName ?? f.credentialName],
    [t("factAwardedTo"), f.recipientName],
    [
      t("factIssuedBy"),
      f.issuerName
        ? f.issuerVerifiedDomain
          ? t("issuerWithDomain", { issuer: f.issuerName, domain: f.issuerVerifiedDomain })
          : f.issuerName
        : null,
    ],
    [t("factIssuerId"), f.issuerId],
    [t("factValidFrom"), day(f.validFrom)],
    [t("factValidUntil"), f.validFrom ? (day(f.validUntil) ?? t("doesNotExpire")) : null],
    [t("factRevokedOn"), day(f.revokedAt)],
    [t("factReason"), f.revokedAt ? (f.revocationReason ?? t("noReason")) : null],
  ];
  const shown = facts.filter((entry): entry is [string, string] => entry[1] !== null);
  // A valid verdict names who signed, in every language: "Valid · issued by X, owner of x.edu" in green
  // when the issuer proved its domain, "Signature valid · issued by "X" (name not verified)" in amber
  // when it proved nothing, so the two never read alike.
  const signer = f.issuerName ?? f.issuerId ?? "?";
  const named = { org: (chunks: React.ReactNode) => <bdi>{chunks}</bdi> };
  const headline =
    report.verdict === "valid" && f.issuerVerifiedDomain
      ? trust.rich("validVerified", { organization: signer, domain: f.issuerVerifiedDomain, ...named })
      : report.verdict === "valid" && unverifiedIssuer
        ? trust.rich("validUnverified", { organization: signer, ...named })
        : english
          ? report.headline
          : translatedHeadline(t, report, day, unverifiedIssuer);

  return (
    <section
      className={styles.result}
      aria-labelledby={headingId}
      data-testid="verification"
      data-verdict={report.verdict}
      data-issuer-verified={f.issuerVerifiedDomain ? "true" : "false"}
    >
      <div className={`${styles.verdict} ${styles[tone]}`}>
        <span className={styles.verdictIcon} aria-hidden="true">
          {VERDICT_ICON[tone]}
        </span>
        <Heading id={headingId} ref={heading} tabIndex={-1} data-testid="verification-result">
          {headline}
        </Heading>
      </div>
      {shown.length > 0 ? (
        <dl className={styles.facts} aria-label={trusted ? t("factsTrusted") : t("factsUntrusted")}>
          {shown.map(([term, value]) => (
            <Fragment key={term}>
              <dt>{trusted ? term : t("claimed", { term })}</dt>
              {/* Values come from the document: isolated, so a Latin name reads whole in a right-to-left page. */}
              <dd>
                <bdi>{value}</bdi>
              </dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
      <ol className={styles.checks} aria-label={t("checks")}>
        {report.checks.map((check) => (
          <li key={check.id} className={styles.check} data-check={check.id} data-outcome={check.outcome}>
            <span className={`${styles.checkIcon} ${styles[check.outcome]}`} aria-hidden="true">
              {OUTCOME_ICON[check.outcome]}
            </span>
            <CheckHeading className={styles.checkTitle}>
              {t.rich("checkHeading", {
                title: t(TITLE_KEY[check.id]),
                result: t(OUTCOME_KEY[check.outcome]),
                outcome: (chunks) => <span className={styles.outcome}>{chunks}</span>,
              })}
            </CheckHeading>
            <p className={styles.checkBody}>{english ? check.summary : translatedSummary(t, followups, check, report.verdict)}</p>
            <p className={styles.meaning}>{t("whatThisChecks", { meaning: t(MEANING_KEY[check.id]) })}</p>
            {check.detail ? (
              <details className={styles.detail}>
                <summary>{t("technicalDetail")}</summary>
                <code dir="ltr">{check.detail}</code>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {report.credentials && report.credentials.length > 0 ? (
        // A presentation: each credential it holds with its own verdict and checks, so a reader sees which
        // one made the whole not valid (the overall verdict above is the worst of them).
        <div className={styles.presented} data-testid="presented-credentials">
          <h3 className={styles.presentedHeading}>{followups("presentedHeading", { count: report.credentials.length })}</h3>
          {report.credentials.map((credential, i) => (
            <details key={i} className={styles.presentedItem} open={credential.verdict !== "valid"} data-testid="presented-credential">
              <summary>{followups("presentedItem", { number: i + 1, count: report.credentials!.length })}</summary>
              <VerificationResult report={credential} headingId={`${headingId}-credential-${i + 1}`} nested />
            </details>
          ))}
        </div>
      ) : null}
      <p className={styles.checkedAt}>
        {t.rich("checkedAt", {
          when: english
            ? new Date(report.checkedAt).toUTCString()
            : format.dateTime(new Date(report.checkedAt), { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }),
          time: (chunks) => <time dateTime={report.checkedAt}>{chunks}</time>,
        })}
      </p>
    </section>
  );
}

/** The verdict in the reader's language, from the report's verdict and facts. */
function translatedHeadline(
  t: T,
  report: VerificationReport,
  day: (iso: string | null) => string | null,
  unverifiedIssuer: boolean,
): string {
  const f = report.facts;
  // The issuer's name between Unicode isolates (FSI … PDI): the heading is one string, so no <bdi>.
  const isolate = (text: string) => `\u2068${text}\u2069`;
  const note = unverifiedIssuer ? ` ${t("unverifiedIssuer")}` : "";
  switch (report.verdict) {
    case "valid":
      return t("headlineValid", { issuer: isolate(f.issuerName ?? f.issuerId ?? "?") }) + note;
    case "expired":
      return t("headlineExpired", { date: day(f.validUntil) ?? "?" }) + note;
    case "not yet valid":
      return t("headlineNotYetValid", { date: day(f.validFrom) ?? "?" }) + note;
    case "revoked":
      return f.revokedAt ? t("headlineRevoked", { date: day(f.revokedAt)! }) : t("headlineRevokedNoDate");
    case "suspended":
      return t("headlineSuspended");
    case "invalid":
      return t("headlineInvalid");
    case "unverifiable":
      return t("headlineUnverifiable");
  }
}
