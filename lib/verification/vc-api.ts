// The W3C VC API's verify operations on top of the one verifier: the request bodies
// ({"verifiableCredential"|"verifiablePresentation", "options"?}) and the VerificationResult they answer
// ({"verified","checks","warnings","errors"}, problems as ProblemDetails). "verified" is true only when
// the verdict is "valid"; each failed check, and each check that could not run, is an error.
import { z } from "zod";
import type { Check, CheckId, VerificationReport } from "./report";
import { isPresentation } from "./format-check";
import { STATUS_LIST_TOO_SHORT, STATUS_LIST_UNREADABLE } from "./status-check";
import { verifyCredentialDocument } from "./verify-document";

const Options = z
  .object({
    challenge: z.string().max(500).optional(),
    domain: z.string().max(500).optional(),
  })
  // The VC API lets clients send options a verifier does not know (checks, expectedProofPurpose, ...).
  .catchall(z.unknown());

export const VerifyCredentialBody = z.strictObject({
  verifiableCredential: z.record(z.string(), z.unknown()),
  options: Options.optional(),
});

export const VerifyPresentationBody = z.strictObject({
  verifiablePresentation: z.record(z.string(), z.unknown()),
  options: Options.optional(),
});

/**
 * A problem, as the VC API reports one (RFC 9457 ProblemDetails with the VC Data Model's `code`), with
 * the check it comes from.
 */
export type ProblemDetails = { type: string; code?: number; title: string; detail: string; check: string };

export type VcApiVerificationResult = {
  verified: boolean;
  checks: string[];
  warnings: ProblemDetails[];
  errors: ProblemDetails[];
  /** This verifier's verdict and its sentence ("Valid: issued by ..."), for people reading the answer. */
  verdict: VerificationReport["verdict"];
  headline: string;
};

/** Each check under the name the VC API and its test suites use. */
const CHECK_NAMES: Record<CheckId, string> = {
  format: "dataModel",
  signature: "proof",
  issuer: "issuer",
  status: "credentialStatus",
  validity: "validity",
};

// The problem types, and their codes, that the specifications define: the VC Data Model 2.0 (whose
// type URLs are under https://www.w3.org/TR/vc-data-model#, without the version) and Bitstring Status
// List 1.0 (under https://www.w3.org/ns/credentials/status-list#).
const VCDM = "https://www.w3.org/TR/vc-data-model#";
const STATUS_LIST = "https://www.w3.org/ns/credentials/status-list#";
type ProblemType = { type: string; code: number };
const PARSING_ERROR: ProblemType = { type: `${VCDM}PARSING_ERROR`, code: -64 };
const CRYPTOGRAPHIC_SECURITY_ERROR: ProblemType = { type: `${VCDM}CRYPTOGRAPHIC_SECURITY_ERROR`, code: -65 };
const MALFORMED_VALUE_ERROR: ProblemType = { type: `${VCDM}MALFORMED_VALUE_ERROR`, code: -66 };
const RANGE_ERROR: ProblemType = { type: `${VCDM}RANGE_ERROR`, code: -67 };
const STATUS_RETRIEVAL_ERROR: ProblemType = { type: `${STATUS_LIST}STATUS_RETRIEVAL_ERROR`, code: -128 };
const STATUS_VERIFICATION_ERROR: ProblemType = { type: `${STATUS_LIST}STATUS_VERIFICATION_ERROR`, code: -129 };
const STATUS_LIST_LENGTH_ERROR: ProblemType = { type: `${STATUS_LIST}STATUS_LIST_LENGTH_ERROR`, code: -130 };

function problemType(check: Check): ProblemType {
  switch (check.id) {
    case "format":
      return check.detail?.startsWith("Unexpected token") || check.summary.includes("not valid JSON")
        ? PARSING_ERROR
        : MALFORMED_VALUE_ERROR;
    case "signature":
    case "issuer":
      return CRYPTOGRAPHIC_SECURITY_ERROR;
    case "status":
      if (check.summary === STATUS_LIST_UNREADABLE) return STATUS_RETRIEVAL_ERROR;
      return check.summary === STATUS_LIST_TOO_SHORT ? STATUS_LIST_LENGTH_ERROR : STATUS_VERIFICATION_ERROR;
    case "validity":
      return RANGE_ERROR;
  }
}

const problem = (check: Check, prefix = ""): ProblemDetails => ({
  ...problemType(check),
  title: `${prefix}${check.summary}`,
  detail: check.detail ?? check.summary,
  check: CHECK_NAMES[check.id],
});

/** The checks of a report (and of the credentials of a presentation) as a VC API VerificationResult. */
export function vcApiResult(report: VerificationReport): VcApiVerificationResult {
  const parts: [string, VerificationReport][] = [
    ["", report],
    ...(report.credentials ?? []).map((r, i): [string, VerificationReport] => [`Credential ${i + 1}: `, r]),
  ];
  const verified = report.verdict === "valid";
  const errors: ProblemDetails[] = [];
  const checks = new Set<string>();
  for (const [prefix, part] of parts) {
    for (const check of part.checks) {
      if (check.outcome === "passed") checks.add(CHECK_NAMES[check.id]);
      if (check.outcome === "failed") errors.push(problem(check, prefix));
    }
  }
  // A verdict other than valid always names at least one reason, even when no single check failed.
  if (!verified && errors.length === 0) {
    // RFC 9457's own type for a problem no more specific type describes.
    errors.push({ type: "about:blank", title: report.headline, detail: report.headline, check: "verdict" });
  }
  return { verified, checks: [...checks], warnings: [], errors, verdict: report.verdict, headline: report.headline };
}

/** Verifies what one of the VC API's verify operations was sent: a credential, or a presentation. */
export async function verifyForVcApi(
  expected: "credential" | "presentation",
  document: Record<string, unknown>,
  options: z.output<typeof Options> = {},
): Promise<VcApiVerificationResult> {
  if (isPresentation(document) !== (expected === "presentation")) {
    const title =
      expected === "credential"
        ? "This is a presentation: send it to /vc-api/presentations/verify."
        : "This is not a presentation: its type must include VerifiablePresentation.";
    return {
      verified: false,
      checks: [],
      warnings: [],
      errors: [{ ...MALFORMED_VALUE_ERROR, title, detail: title, check: "dataModel" }],
      verdict: "invalid",
      headline: `Not valid: ${title}`,
    };
  }
  const report = await verifyCredentialDocument(
    { kind: "json", json: JSON.stringify(document) },
    { ...(options.challenge ? { challenge: options.challenge } : {}), ...(options.domain ? { domain: options.domain } : {}) },
  );
  return vcApiResult(report);
}
