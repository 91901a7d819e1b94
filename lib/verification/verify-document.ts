// verifyCredentialDocument: every input (JSON text, a URL, a baked PNG, a PDF with an embedded
// credential.json) gets a report with a verdict and its reasons, never an exception. It reads any W3C
// Verifiable Credential (data model 2.0 or 1.1) or Verifiable Presentation whose issuer is a did:web or
// did:key DID and whose proof is eddsa-rdfc-2022, ecdsa-rdfc-2019 or Ed25519Signature2020; the verdict is
// "valid" only when every check passed. The checks run in the order a verifier needs them (format, then the
// issuer's DID, then the signature with that DID's key, then status and dates) and are reported in
// the order a reader does (format, signature, issuer, status, validity).
import { domainHost } from "../domains/domain-name";
import { issuerIdentityBySlug } from "../domains/service";
import { errorSummary, log } from "../log";
import type { ResolvedDidDocument } from "../verifiable/document-loader";
import { resolveIssuerDid } from "./did-resolution";
import { linkedDomainOf } from "./linked-domain";
import { checkCredentialFormat, MAX_CREDENTIAL_BYTES, parseDocument, isPresentation, type CredentialDocument } from "./format-check";
import { ownCredentialPublicId, ownRevocation, ownSignedCredential } from "./own-credentials";
import { extractPdfCredential, PdfCredentialError } from "./pdf-embedded";
import { BakingError, extractBakedCredential } from "./png-baking";
import { verifyPresentationDocument } from "./presentation";
import { fetchJsonText, RemoteDocumentError } from "./remote-json";
import { CHECK_IDS, EMPTY_FACTS, type Check, type CheckId, type CredentialFacts, type Verdict, type VerificationReport } from "./report";
import { verifyProof } from "./signature-check";
import { checkCredentialStatus } from "./status-check";
import { supportedProof, SUPPORTED_PROOFS } from "./suites";

export type VerificationInput =
  { kind: "json"; json: string } | { kind: "url"; url: string } | { kind: "png"; bytes: Uint8Array } | { kind: "pdf"; bytes: Uint8Array };

export type VerifyOptions = { now?: Date; challenge?: string; domain?: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

const longDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
};

/** The checks in reading order; those never reached are `skipped`, saying why. */
export function ordered(done: Partial<Record<CheckId, Check>>, skippedBecause: string): Check[] {
  return CHECK_IDS.map((id) => done[id] ?? { id, outcome: "skipped", summary: `Not checked: ${skippedBecause}`, detail: null });
}

export function report(verdict: Verdict, headline: string, checks: Check[], facts: CredentialFacts, now: Date): VerificationReport {
  return { verdict, headline, checks, facts, checkedAt: now.toISOString() };
}

type Loaded = { ok: true; json: string } | { ok: false; check: Check };

const notLoaded = (summary: string, detail: string | null): Loaded => ({
  ok: false,
  check: { id: "format", outcome: "failed", summary, detail },
});

/** The credential's JSON text from whatever was given. */
async function loadInput(input: VerificationInput): Promise<Loaded> {
  if (input.kind === "json") return { ok: true, json: input.json };
  if (input.kind === "pdf") {
    try {
      return { ok: true, json: await extractPdfCredential(input.bytes, MAX_CREDENTIAL_BYTES) };
    } catch (error) {
      if (error instanceof PdfCredentialError) return notLoaded(error.message, `PDF: ${error.kind}`);
      throw error;
    }
  }
  if (input.kind === "png") {
    try {
      return { ok: true, json: extractBakedCredential(input.bytes, MAX_CREDENTIAL_BYTES) };
    } catch (error) {
      if (error instanceof BakingError) return notLoaded(error.message, `PNG: ${error.kind}`);
      throw error;
    }
  }
  const url = input.url.trim();
  const publicId = ownCredentialPublicId(url);
  if (publicId) {
    const json = await ownSignedCredential(publicId);
    return json ? { ok: true, json } : notLoaded("No credential is published at this address.", url);
  }
  try {
    // One byte over the limit is enough to tell "too large" without reading more.
    return { ok: true, json: await fetchJsonText(url, MAX_CREDENTIAL_BYTES) };
  } catch (error) {
    if (error instanceof RemoteDocumentError) return notLoaded("The credential could not be fetched from this address.", error.message);
    throw error;
  }
}

type IssuerOutcome =
  | { ok: true; check: Check; didDocument: ResolvedDidDocument; verifiedDomain: string | null; registeredName: string | null }
  | { ok: false; check: Check; verdict: "invalid" | "unverifiable"; headline: string };

const issuerFailed = (verdict: "invalid" | "unverifiable", summary: string, detail: string | null, headline: string): IssuerOutcome => ({
  ok: false,
  verdict,
  headline,
  check: { id: "issuer", outcome: "failed", summary, detail },
});

const referenceIds = (value: unknown) => asArray(value).map((v) => (isObject(v) ? v.id : v));

async function checkIssuer(document: CredentialDocument, issuerId: string, verificationMethod: string): Promise<IssuerOutcome> {
  const signerDid = verificationMethod.split("#")[0]!;
  if (signerDid !== issuerId) {
    return issuerFailed(
      "invalid",
      "The credential was signed with someone else's key, not the key of the issuer it names.",
      `issuer ${issuerId}; signed with ${verificationMethod}`,
      "Not valid: it was signed by someone other than the issuer it names.",
    );
  }
  const resolved = await resolveIssuerDid(issuerId);
  if (!resolved.ok) {
    return resolved.kind === "not_found"
      ? issuerFailed(
          "invalid",
          "The issuer the credential names does not exist.",
          resolved.reason,
          "Not valid: the issuer it names does not exist.",
        )
      : issuerFailed(
          "unverifiable",
          "The issuer's published keys could not be read, so the signature cannot be checked.",
          resolved.reason,
          `Could not be verified: ${resolved.reason}`,
        );
  }
  const { document: didDocument } = resolved;
  const listed = referenceIds(didDocument.verificationMethod).includes(verificationMethod);
  const forAssertions = referenceIds(didDocument.assertionMethod).includes(verificationMethod);
  if (!listed || !forAssertions) {
    return issuerFailed(
      "invalid",
      "The key that signed is not one the issuer publishes for issuing credentials.",
      `${verificationMethod} is not ${listed ? "an assertion method" : "listed"} in ${issuerId}`,
      "Not valid: it was not signed with one of the issuer's keys.",
    );
  }
  if (!resolved.local) {
    // Another issuer: a website that links itself to the DID (DIF Well-Known DID Configuration) names it.
    const linked = await linkedDomainOf(issuerId, didDocument);
    const linkedNote = linked ? ` ${linked} links itself to this issuer (DID Configuration): whoever controls ${linked} issued it.` : "";
    if (issuerId.startsWith("did:key:")) {
      return {
        ok: true,
        didDocument,
        verifiedDomain: linked,
        registeredName: null,
        check: {
          id: "issuer",
          outcome: linked ? "passed" : "warning",
          summary: linked
            ? `Signed with the key the issuer names (a did:key).${linkedNote}`
            : "Signed with the key the issuer names (a did:key): the key is all it is, so nothing ties it to a person or an organization.",
          detail: verificationMethod,
        },
      };
    }
    const host = decodeURIComponent(issuerId.split(":")[2] ?? "");
    return {
      ok: true,
      didDocument,
      verifiedDomain: linked,
      registeredName: null,
      check: {
        id: "issuer",
        outcome: "passed",
        summary: linked
          ? `Signed with a key that ${host} publishes.${linkedNote}`
          : `Signed with a key that ${host} publishes: whoever controls ${host} issued it.`,
        detail: `${verificationMethod}`,
      },
    };
  }
  const identity = await issuerIdentityBySlug(resolved.slug!);
  const claimed = isObject(document.issuer) && typeof document.issuer.name === "string" ? document.issuer.name : null;
  const renamed = identity && claimed !== null && claimed !== identity.name ? `; the credential calls it ${JSON.stringify(claimed)}` : "";
  const detail = `${verificationMethod}${renamed}`;
  if (identity?.verifiedDomain) {
    const domain = domainHost(identity.verifiedDomain);
    return {
      ok: true,
      didDocument,
      verifiedDomain: domain,
      registeredName: identity.name,
      check: { id: "issuer", outcome: "passed", summary: `Issued by ${identity.name}, verified owner of ${domain}.`, detail },
    };
  }
  const name = identity?.name ?? claimed ?? "the issuer";
  return {
    ok: true,
    didDocument,
    verifiedDomain: null,
    registeredName: identity?.name ?? null,
    check: {
      id: "issuer",
      outcome: "warning",
      summary: `Signed by ${name}, an organization on this service, whose identity is not verified: it has not proven that it owns a website domain. Anyone can sign up under any name.`,
      detail,
    },
  };
}

function checkValidity(facts: CredentialFacts, now: Date): { check: Check; verdict: "valid" | "expired" | "not yet valid" | "invalid" } {
  const from = facts.validFrom ? Date.parse(facts.validFrom) : NaN;
  const until = facts.validUntil ? Date.parse(facts.validUntil) : NaN;
  if ((facts.validFrom && Number.isNaN(from)) || (facts.validUntil && Number.isNaN(until))) {
    return {
      verdict: "invalid",
      check: {
        id: "validity",
        outcome: "failed",
        summary: "The credential's dates cannot be read.",
        detail: `validFrom ${facts.validFrom}, validUntil ${facts.validUntil}`,
      },
    };
  }
  const dates = `valid from ${facts.validFrom ?? "(not stated)"} until ${facts.validUntil ?? "(no expiry)"}`;
  if (!Number.isNaN(from) && now.getTime() < from) {
    return {
      verdict: "not yet valid",
      check: {
        id: "validity",
        outcome: "failed",
        summary: `The credential is not valid yet: it becomes valid on ${longDate(facts.validFrom!)}.`,
        detail: dates,
      },
    };
  }
  if (!Number.isNaN(until) && now.getTime() > until) {
    return {
      verdict: "expired",
      check: { id: "validity", outcome: "failed", summary: `The credential expired on ${longDate(facts.validUntil!)}.`, detail: dates },
    };
  }
  const summary = Number.isNaN(until)
    ? "The credential is in effect and does not expire."
    : `The credential is in effect until ${longDate(facts.validUntil!)}.`;
  return { verdict: "valid", check: { id: "validity", outcome: "passed", summary, detail: dates } };
}

async function verify(input: VerificationInput, now: Date, options: VerifyOptions): Promise<VerificationReport> {
  const loaded = await loadInput(input);
  if (!loaded.ok) {
    return report(
      "unverifiable",
      `Could not be verified: ${loaded.check.summary}`,
      ordered({ format: loaded.check }, "there is no credential to check."),
      EMPTY_FACTS,
      now,
    );
  }
  const parsed = parseDocument(loaded.json);
  if (!parsed.ok) return notReadable(parsed.result.check, parsed.result.facts, now);
  if (isPresentation(parsed.value)) return verifyPresentationDocument(parsed.value, parsed.bytes, now, options, verifyParsedCredential);
  return verifyParsedCredential(parsed.value, parsed.bytes, now);
}

const notReadable = (check: Check, facts: CredentialFacts, now: Date) =>
  report("invalid", `Not valid: ${check.summary}`, ordered({ format: check }, "the document is not a readable credential."), facts, now);

/** Every check of one credential, parsed (given on its own, or inside a presentation). */
export async function verifyParsedCredential(parsed: Record<string, unknown>, bytes: number, now: Date): Promise<VerificationReport> {
  const format = checkCredentialFormat(parsed, bytes);
  if (!format.document) return notReadable(format.check, format.facts, now);
  const document = format.document;
  const issuerId = format.facts.issuerId!;
  const done: Partial<Record<CheckId, Check>> = { format: format.check };

  const proof = supportedProof(document, issuerId);
  if (!proof) {
    done.signature = {
      id: "signature",
      outcome: "failed",
      summary: "The credential is signed in a way this verifier does not check.",
      detail: `no proof of a supported kind (${SUPPORTED_PROOFS.join(", ")})`,
    };
    return report(
      "unverifiable",
      `Could not be verified: ${done.signature.summary}`,
      ordered(done, "the signature could not be checked."),
      format.facts,
      now,
    );
  }
  const issuer = await checkIssuer(document, issuerId, proof.verificationMethod);
  done.issuer = issuer.check;
  if (!issuer.ok)
    return report(issuer.verdict, issuer.headline, ordered(done, "the issuer's key could not be established."), format.facts, now);

  const signature = await verifyProof(document, issuer.didDocument);
  if (!signature.verified) {
    // A proof that could not be checked at all is not a forgery: "could not be verified".
    const failure = signature.unchecked
      ? {
          verdict: "unverifiable" as const,
          summary: "One of the document's signatures is of a kind, or by someone, this verifier does not check.",
          headline: "Could not be verified: One of the document's signatures is of a kind, or by someone, this verifier does not check.",
          skipped: "the signature could not be checked.",
        }
      : {
          verdict: "invalid" as const,
          summary: "The document was changed after it was signed, or the signature is forged.",
          headline: "Not valid: the document was changed after it was signed.",
          skipped: "the signature does not match.",
        };
    done.signature = { id: "signature", outcome: "failed", summary: failure.summary, detail: signature.reason };
    return report(failure.verdict, failure.headline, ordered(done, failure.skipped), format.facts, now);
  }
  done.signature = {
    id: "signature",
    outcome: "passed",
    summary: "The signature matches: the document is exactly as the issuer signed it.",
    detail: proof.verificationMethod,
  };

  const facts: CredentialFacts = {
    ...format.facts,
    issuerName: issuer.registeredName ?? format.facts.issuerName,
    issuerVerifiedDomain: issuer.verifiedDomain,
  };
  const status = await checkCredentialStatus(document, issuerId, issuer.didDocument, now);
  done.status = status.check;
  const validity = checkValidity(facts, now);
  done.validity = validity.check;
  const checks = ordered(done, "");

  const verifiedOwner = facts.issuerVerifiedDomain ? ` (verified owner of ${facts.issuerVerifiedDomain})` : "";
  const who = `issued by ${facts.issuerName ?? issuerId}${verifiedOwner}${facts.recipientName ? ` to ${facts.recipientName}` : ""}`;
  const unverifiedIssuer = issuer.check.outcome === "warning" ? " The issuer's identity is not verified." : "";
  // Revoked first: whatever else is wrong, a revoked credential must read as revoked.
  if (status.revoked) {
    const revocation = await ownRevocation(document.id);
    facts.revokedAt = revocation?.revokedAt ?? null;
    facts.revocationReason = revocation?.reason ?? null;
    const when = revocation ? ` on ${longDate(revocation.revokedAt)}` : "";
    const why = revocation?.reason ? `: ${revocation.reason}` : ".";
    return report("revoked", `Revoked${when}${why}`, checks, facts, now);
  }
  if (status.suspended) return report("suspended", `Suspended: the issuer does not vouch for it for now (${who}).`, checks, facts, now);
  if (validity.verdict === "invalid") return report("invalid", `Not valid: ${validity.check.summary}`, checks, facts, now);
  if (status.invalid) return report("invalid", `Not valid: ${status.check.summary}`, checks, facts, now);
  if (status.unverifiable) return report("unverifiable", `Could not be verified: ${status.check.summary}`, checks, facts, now);
  if (validity.verdict === "expired")
    return report("expired", `Expired on ${longDate(facts.validUntil!)}: ${who}.${unverifiedIssuer}`, checks, facts, now);
  if (validity.verdict === "not yet valid")
    return report(
      "not yet valid",
      `Not yet valid: valid from ${longDate(facts.validFrom!)}, ${who}.${unverifiedIssuer}`,
      checks,
      facts,
      now,
    );
  const on = facts.validFrom ? ` on ${longDate(facts.validFrom)}` : "";
  return report("valid", `Valid: ${who}${on}.${unverifiedIssuer}`, checks, facts, now);
}

/** Verifies a credential given as JSON text, a URL or a baked PNG. Never throws. */
export async function verifyCredentialDocument(input: VerificationInput, options: VerifyOptions = {}): Promise<VerificationReport> {
  const now = options.now ?? new Date();
  try {
    return await verify(input, now, options);
  } catch (error) {
    log.error("verification_failed", { input: input.kind, ...errorSummary(error) });
    const check: Check = {
      id: "format",
      outcome: "skipped",
      summary: "The verification stopped on an unexpected error; try again later.",
      detail: null,
    };
    return report(
      "unverifiable",
      "Could not be verified: the verification stopped on an unexpected error.",
      ordered({ format: check }, "the verification stopped."),
      EMPTY_FACTS,
      now,
    );
  }
}
