// Documents with more than one proof (VC Data Integrity 1.0 §2.1.1 and §4.4): a proof set, where every
// proof must verify, and a proof chain, where a proof names earlier ones in `previousProof` and was
// computed over the document with those proofs attached. @digitalbazaar/vc (through
// jsonld-signatures' ProofSet) calls a set valid when any one proof verifies, and always removes every
// proof before hashing, so a chain never verifies there. This module runs the library's own steps (the
// suite's verifyProof, then the proof purpose) once per proof, on the document that proof covers.
import * as vc from "@digitalbazaar/vc";
import jsigs from "jsonld-signatures";
import type { DocumentLoader } from "@digitalbazaar/vc";
import { previousProofIds, proofSetProblem, proofsOf, signerDid, type Proof } from "./proof-shape";
import { verificationSuites } from "./suites";

/**
 * `unchecked`: a proof this verifier cannot check (a kind it does not read, a countersigner whose DID it
 * does not resolve): the document is not shown to be intact, and not shown to be changed either.
 */
export type ProofSetOutcome = { verified: true } | { verified: false; reason: string; unchecked?: true };

type LibrarySuite = {
  matchProof(options: { proof: Proof; document: object; documentLoader: DocumentLoader }): Promise<boolean>;
  verifyProof(options: {
    proof: Proof;
    document: object;
    purpose: unknown;
    proofSet: Proof[];
    documentLoader: DocumentLoader;
  }): Promise<{ verified: boolean; verificationMethod?: unknown; error?: unknown }>;
};
type LibraryPurpose = {
  match(proof: Proof, options: { document: object; documentLoader: DocumentLoader }): Promise<boolean>;
  validate(
    proof: Proof,
    options: { document: object; suite: unknown; verificationMethod: unknown; documentLoader: DocumentLoader },
  ): Promise<{ valid: boolean; error?: unknown }>;
};

const message = (error: unknown): string =>
  error instanceof Error ? error.message : Array.isArray(error) ? message(error[0]) : String(error);

/**
 * Verifies every proof of `document`. A proof by the document's issuer is held to the credential
 * issuance purpose (its key's controller is the issuer); a proof by anyone else (a countersignature)
 * to the assertion purpose of its own key. At least one proof must be the issuer's.
 */
export async function verifyProofSet(
  document: Record<string, unknown>,
  issuerId: string,
  documentLoader: DocumentLoader,
): Promise<ProofSetOutcome> {
  const problem = proofSetProblem(document);
  if (problem) return { verified: false, reason: problem };
  const proofs = proofsOf(document) as Proof[];
  if (!proofs.some((proof) => signerDid(proof) === issuerId)) {
    return { verified: false, reason: "none of the document's proofs is by its issuer" };
  }
  const byId = new Map(proofs.flatMap((proof) => (typeof proof.id === "string" ? [[proof.id, proof] as const] : [])));

  // Countersigners' keys are resolved only when they need no request: a did:key is its own document.
  // Anything else would let one document make this verifier fetch from as many hosts as it has proofs.
  const stranger = proofs.find((proof) => signerDid(proof) !== issuerId && !signerDid(proof)?.startsWith("did:key:"));
  if (stranger) {
    return {
      verified: false,
      unchecked: true,
      reason: `a countersignature by ${String(signerDid(stranger)).slice(0, 200)}: only the issuer's key and did:key countersigners are checked`,
    };
  }

  const { proof: _omitted, ...unsecured } = document;
  // The issuer's proofs first: a forged one ends the check before any other is looked at.
  const order = [...proofs.keys()].sort((a, b) => Number(signerDid(proofs[b]!) === issuerId) - Number(signerDid(proofs[a]!) === issuerId));
  for (const index of order) {
    const proof = proofs[index]!;
    // The data a chained proof covers is the document with the proofs it names attached (§4.4 step 4).
    const previousProofs = (previousProofIds(proof) ?? []).map((id) => byId.get(id)!);
    const covered =
      previousProofs.length === 0 ? unsecured : { ...unsecured, proof: previousProofs.length === 1 ? previousProofs[0] : previousProofs };
    const outcome = await verifyOneProof(proof, covered, signerDid(proof) === issuerId, documentLoader);
    if (!outcome.verified) return { ...outcome, reason: `proof ${index + 1}: ${outcome.reason}` };
  }
  return { verified: true };
}

async function verifyOneProof(
  proof: Proof,
  covered: Record<string, unknown>,
  byIssuer: boolean,
  documentLoader: DocumentLoader,
): Promise<ProofSetOutcome> {
  // As jsonld-signatures' ProofSet does: a proof is read in the document's context.
  const withContext = { "@context": covered["@context"], ...proof };
  const suites = verificationSuites() as LibrarySuite[];
  let suite: LibrarySuite | undefined;
  for (const candidate of suites) {
    if (await candidate.matchProof({ proof: withContext, document: covered, documentLoader })) {
      suite = candidate;
      break;
    }
  }
  if (!suite) {
    return {
      verified: false,
      unchecked: true,
      reason: `a proof of a kind this verifier does not check (${String(proof.type).slice(0, 100)})`,
    };
  }
  const purpose: LibraryPurpose = byIssuer ? new vc.CredentialIssuancePurpose() : new jsigs.purposes.AssertionProofPurpose();
  try {
    // The library's ProofSet picks proofs by purpose before verifying them; here each proof is held to
    // its purpose: an "authentication" proof is no proof of issuance, whatever its key may do.
    if (!(await purpose.match(withContext, { document: covered, documentLoader }))) {
      return { verified: false, reason: `its proofPurpose is ${JSON.stringify(proof.proofPurpose)}, not "assertionMethod"` };
    }
    const result = await suite.verifyProof({ proof: withContext, document: covered, purpose, proofSet: [], documentLoader });
    if (!result.verified) return { verified: false, reason: message(result.error ?? "the proof did not verify") };
    const purposeResult = await purpose.validate(withContext, {
      document: covered,
      suite,
      verificationMethod: result.verificationMethod,
      documentLoader,
    });
    return purposeResult.valid
      ? { verified: true }
      : { verified: false, reason: message(purposeResult.error ?? "the proof's purpose does not hold") };
  } catch (error) {
    return { verified: false, reason: message(error) };
  }
}
