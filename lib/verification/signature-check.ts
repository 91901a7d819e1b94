// Checking a credential's proof with @digitalbazaar/vc and the suites this verifier reads
// (eddsa-rdfc-2022, ecdsa-rdfc-2019, Ed25519Signature2020), through a loader that knows only the bundled
// contexts and the one DID document the issuer check resolved: nothing is fetched while
// canonicalizing, and no key of anyone else can be slipped in.
import * as vc from "@digitalbazaar/vc";
import { createDocumentLoader, type ResolvedDidDocument } from "../verifiable/document-loader";
import { resolveIssuerDid } from "./did-resolution";
import { proofMemoKey, rememberVerified, verifiedBefore } from "./proof-memo";
import { verifyProofSet } from "./proof-set";
import { isProofSetOrChain, proofsOf } from "./proof-shape";
import { verificationSuites } from "./suites";

/** `unchecked`: a proof could not be checked at all (see proof-set.ts): neither intact nor changed. */
export type ProofOutcome = { verified: true } | { verified: false; reason: string; unchecked?: true };

/**
 * A moment inside the document's validity window. The library also checks validFrom/validUntil
 * against "now"; dates are the validity check's business, so the signature is checked as of a time
 * the dates allow, and an expired credential's signature still reads as intact.
 */
function momentInsideValidity(document: Record<string, unknown>): Date {
  const fromValue = document.validFrom ?? document.issuanceDate;
  const untilValue = document.validUntil ?? document.expirationDate;
  const from = typeof fromValue === "string" ? Date.parse(fromValue) : NaN;
  const until = typeof untilValue === "string" ? Date.parse(untilValue) : NaN;
  const now = Date.now();
  if (!Number.isNaN(until) && now > until) return new Date(until);
  if (!Number.isNaN(from) && now < from) return new Date(from);
  return new Date(now);
}

export function reasonOfFailure(result: { error?: unknown; results?: unknown[] }): string {
  const errors: unknown[] = [];
  const collect = (e: unknown) => {
    if (!e) return;
    if (Array.isArray(e)) e.forEach(collect);
    else {
      errors.push(e);
      collect((e as { errors?: unknown }).errors);
    }
  };
  collect(result.error);
  for (const r of (result.results ?? []) as { error?: unknown }[]) collect(r.error);
  const messages = errors
    .filter((e): e is Error => e instanceof Error && !(e.message ?? "").startsWith("Verification error(s)"))
    .map((e) => e.message);
  return messages[0] ?? "the proof did not verify";
}

/** Verifies `document`'s proof, resolving only `didDocument`; status is not looked at here. */
export async function verifyProof(document: Record<string, unknown>, didDocument: ResolvedDidDocument): Promise<ProofOutcome> {
  const memoKey = proofMemoKey(document, didDocument);
  if (verifiedBefore(memoKey)) return { verified: true };
  const outcome = await checkProof(document, didDocument);
  if (outcome.verified) rememberVerified(memoKey);
  return outcome;
}

/**
 * The DIDs a document's proofs were made with, other than the issuer's: a countersignature in a proof
 * set or chain. proof-set.ts checks only did:key countersigners, resolved here without any request (a
 * did:key is its own document, so a memoised outcome cannot go stale either).
 */
function otherSignerDids(document: Record<string, unknown>, issuerDid: string): Set<string> {
  const dids = new Set<string>();
  for (const proof of proofsOf(document)) {
    const method = (proof as { verificationMethod?: unknown } | null)?.verificationMethod;
    if (typeof method === "string") dids.add(method.split("#")[0]!);
  }
  dids.delete(issuerDid);
  return dids;
}

async function checkProof(document: Record<string, unknown>, didDocument: ResolvedDidDocument): Promise<ProofOutcome> {
  if (isProofSetOrChain(document)) {
    const others = otherSignerDids(document, didDocument.id);
    const documentLoader = createDocumentLoader({
      resolveDid: async (did) => {
        if (did === didDocument.id) return didDocument;
        if (!others.has(did) || !did.startsWith("did:key:")) return null;
        const resolved = await resolveIssuerDid(did);
        return resolved.ok ? resolved.document : null;
      },
    });
    return verifyProofSet(document, didDocument.id, documentLoader);
  }
  const documentLoader = createDocumentLoader({ resolveDid: async (did) => (did === didDocument.id ? didDocument : null) });
  const suite = verificationSuites();
  try {
    const result = await vc.verifyCredential({
      // The library may add to what it is given: check a copy.
      credential: structuredClone(document),
      suite,
      documentLoader,
      now: momentInsideValidity(document),
      // The status is checked on its own (status-check.ts), with its own answers; the library insists
      // on a function whenever credentialStatus is present.
      checkStatus: async () => ({ verified: true }),
    });
    return result.verified ? { verified: true } : { verified: false, reason: reasonOfFailure(result) };
  } catch (error) {
    return { verified: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
