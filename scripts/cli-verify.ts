// `npm run cli -- verify <file.json|file.png|file.pdf|url>`: the same checks and verdict as /verify, for scripts.
// Exit code 0 valid, 1 not valid (invalid, revoked, expired, not yet valid), 2 could not be verified.
import { readFileSync, statSync } from "node:fs";
import { CHECK_TITLES, type VerificationReport } from "@/lib/verification/report";
import { MAX_PNG_REQUEST_BYTES } from "@/lib/verification/request";
import { verifyCredentialDocument, type VerificationInput } from "@/lib/verification/verify-document";

const MARKS = { passed: "PASS", failed: "FAIL", warning: "WARN", skipped: "SKIP" } as const;

/** Reads a file argument; the caller turns a failure into a usage error (exit 2). */
export function verificationInputFromArgument(arg: string): VerificationInput {
  if (/^https?:\/\//i.test(arg)) return { kind: "url", url: arg };
  const size = statSync(arg).size;
  if (size > MAX_PNG_REQUEST_BYTES) throw new Error(`${arg} is larger than ${MAX_PNG_REQUEST_BYTES / 1024 / 1024} MiB`);
  const bytes = readFileSync(arg);
  // A PNG by its signature, whatever its name; anything else is read as JSON text.
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return { kind: "png", bytes };
  if (bytes.subarray(0, 5).toString("latin1") === "%PDF-") return { kind: "pdf", bytes };
  return { kind: "json", json: bytes.toString("utf8") };
}

export function formatReport(report: VerificationReport): string {
  const lines = [report.headline, ""];
  for (const check of report.checks) {
    lines.push(`${MARKS[check.outcome]}  ${CHECK_TITLES[check.id]}: ${check.summary}`);
    if (check.detail) lines.push(`      ${check.detail}`);
  }
  lines.push("", `verdict: ${report.verdict}`);
  return lines.join("\n");
}

export function exitCodeOf(report: VerificationReport): number {
  if (report.verdict === "valid") return 0;
  return report.verdict === "unverifiable" ? 2 : 1;
}

export async function runVerify(input: VerificationInput): Promise<number> {
  const report = await verifyCredentialDocument(input);
  console.log(formatReport(report));
  return exitCodeOf(report);
}
