// What a verification answers: an ordered list of checks, each with a plain-English summary an
// employer can act on and a technical detail, a verdict, and the facts the credential states. The
// /verify page, the wallet's verify button, the public JSON route and the CLI all show this one shape.

export const CHECK_IDS = ["format", "signature", "issuer", "status", "validity"] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** `skipped`: not run, because an earlier check already decided (or nothing to check against). */
export type CheckOutcome = "passed" | "failed" | "warning" | "skipped";

export type Check = {
  id: CheckId;
  outcome: CheckOutcome;
  /** One sentence for a reader who knows nothing of signatures. */
  summary: string;
  /** What exactly was found (a key id, a library's reason, a URL), for whoever digs further. */
  detail: string | null;
};

export type Verdict =
  | "valid"
  | "revoked"
  /** The issuer has suspended it (a set suspension bit): not valid for now, perhaps again later. */
  | "suspended"
  | "expired"
  | "not yet valid"
  /** Checked and found wrong: tampered, forged, signed by a key the issuer does not own, not a credential. */
  | "invalid"
  /** Could not be checked (an issuer's server unreachable, a method we cannot resolve): no conclusion. */
  | "unverifiable";

/** What the credential says about itself. Only trustworthy when the verdict is not `invalid`. */
export type CredentialFacts = {
  credentialName: string | null;
  achievementName: string | null;
  recipientName: string | null;
  issuerName: string | null;
  issuerId: string | null;
  /** A domain the issuer proved it controls, when the issuer is an organization of this instance that did. */
  issuerVerifiedDomain: string | null;
  validFrom: string | null;
  validUntil: string | null;
  revokedAt: string | null;
  revocationReason: string | null;
};

export type VerificationReport = {
  verdict: Verdict;
  /** The verdict as one plain sentence ("Valid: issued by X to Y on D."). */
  headline: string;
  checks: Check[];
  facts: CredentialFacts;
  checkedAt: string;
  /** A presentation's report: each credential it holds, with its own checks. */
  credentials?: VerificationReport[];
};

export const CHECK_TITLES: Record<CheckId, string> = {
  format: "Format",
  signature: "Signature",
  issuer: "Issuer",
  status: "Revocation and suspension",
  validity: "Validity dates",
};

/** What each check means for someone deciding whether to trust the credential. */
export const CHECK_MEANINGS: Record<CheckId, string> = {
  format:
    "The document is a W3C Verifiable Credential (2.0 or 1.1), or a presentation of credentials, that keeps the standard's data model: an Open Badges 3.0 credential or any other.",
  signature: "The issuer's digital signature matches every word of the document: nothing was changed after it was signed.",
  issuer:
    "The key that signed belongs to the issuer the credential names, as the issuer's DID (did:web or did:key) publishes it; when the issuer proves that it owns a website domain, that domain is named as the signer's.",
  status:
    "The issuer has neither revoked nor suspended the credential: every status list the credential names was read and its signature checked.",
  validity: "Today falls between the credential's start date and its expiry date, if it has one.",
};

export const EMPTY_FACTS: CredentialFacts = {
  credentialName: null,
  achievementName: null,
  recipientName: null,
  issuerName: null,
  issuerId: null,
  issuerVerifiedDomain: null,
  validFrom: null,
  validUntil: null,
  revokedAt: null,
  revocationReason: null,
};
