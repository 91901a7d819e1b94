// The W3C VC API's verify operations on top of the one verifier: the request bodies
// ({"verifiableCredential"|"verifiablePresentation", "options"?}) and the VerificationResult they answer
// ({"verified","checks","warnings","errors"}, problems as ProblemDetails). "verified" is true only when
// the verdict is "valid"; each failed check, and each check that could not run, is an error.
import { z } from "zod";
import type { Check, CheckId, VerificationReport } from "./report";
import { isPresentation } from "./format-check";
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

/** A problem, as the VC API reports one (RFC 9457 ProblemDetails), with the check it comes from. */
export type ProblemDetails = { type: string; title: string; detail: string; check: string };

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

// Error types from the specifications that define them (VC Data Model 2.0, Bitstring Status List).
const VCDM = "https://www.w3.org/TR/vc-data-model-2.0/#";
const ERROR_TYPES: Record<CheckId, string> = {
  format: `${VCDM}MALFORMED_VALUE_ERROR`,
  signature: `${VCDM}CRYPTOGRAPHIC_SECURITY_ERROR`,
  issuer: `${VCDM}CRYPTOGRAPHIC_SECURITY_ERROR`,
  status: "https://www.w3.org/TR/vc-bitstring-status-list/#STATUS_VERIFICATION_ERROR",
  validity: `${VCDM}RANGE_ERROR`,
};

const problem = (check: Check, prefix = ""): ProblemDetails => ({
  type:
    check.detail?.startsWith("Unexpected token") || check.summary.includes("not valid JSON")
      ? `${VCDM}PARSING_ERROR`
      : ERROR_TYPES[check.id],
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
    errors.push({ type: `${VCDM}VERIFICATION_ERROR`, title: report.headline, detail: report.headline, check: "verdict" });
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
      errors: [{ type: `${VCDM}MALFORMED_VALUE_ERROR`, title, detail: title, check: "dataModel" }],
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
