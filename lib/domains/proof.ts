// How an organization proves it owns its domain: it serves, at
//
//     https://<domain>/.well-known/credential-issuer.txt
//
// a plain-text file (UTF-8, at most 64 KiB) with a line that is exactly
//
//     credential-issuer-verification=<token>
//
// Leading and trailing spaces and a CR before the line end are ignored; nothing else is. Other lines
// are ignored too, so one file can carry the tokens of several organizations (or services) and
// comments. The token is ours, random and per claim, so serving it is something only whoever controls
// the website can do.
import { randomBytes } from "node:crypto";

export const PROOF_PATH = "/.well-known/credential-issuer.txt";
export const PROOF_PREFIX = "credential-issuer-verification=";
/** Longest proof file read; a longer answer fails the check rather than being read on. */
export const PROOF_MAX_BYTES = 64 * 1024;

/** 32 lowercase hex characters (128 random bits). */
export function newVerificationToken(): string {
  return randomBytes(16).toString("hex");
}

/** The exact line the organization publishes. */
export function proofLine(token: string): string {
  return `${PROOF_PREFIX}${token}`;
}

export type ProofReading = "found" | "other_token" | "absent";

/**
 * Whether `text` (the file's body) carries this token's line; `other_token` when it carries a
 * verification line with some other token (a token from an earlier claim, or a typo), which
 * deserves its own explanation.
 */
export function readProof(text: string, token: string): ProofReading {
  const wanted = proofLine(token);
  let other = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === wanted) return "found";
    if (line.startsWith(PROOF_PREFIX)) other = true;
  }
  return other ? "other_token" : "absent";
}
