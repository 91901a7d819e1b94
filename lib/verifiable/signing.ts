// Data Integrity proofs (eddsa-rdfc-2022) with the Digital Bazaar libraries the field uses: the
// document is canonicalized as RDF (through the bundled contexts of the loader it is given), hashed
// and signed with Ed25519. Nothing here chooses a key: the caller hands in the issuer's signer.
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import type { DocumentLoader } from "./document-loader";
import { withProofArray } from "./proof-array";

/** What signs: an Ed25519 signer whose id is a verification method of the document's issuer. */
export type ProofSigner = { id: string; algorithm: "Ed25519"; sign: (input: { data: Uint8Array }) => Promise<Uint8Array> };

export const CRYPTOSUITE = "eddsa-rdfc-2022";

/**
 * The document with a `DataIntegrityProof` (cryptosuite eddsa-rdfc-2022, purpose assertionMethod), in
 * a `proof` array (proof-array.ts says why).
 */
export async function signDocument<T extends object>(
  unsigned: T,
  signer: ProofSigner,
  documentLoader: DocumentLoader,
): Promise<T & { proof: object[] }> {
  const suite = new DataIntegrityProof({ signer, cryptosuite });
  // The library adds the proof to the object it is given: sign a copy, so the caller's stays unsigned.
  const signed = (await vc.issue({ credential: structuredClone(unsigned), suite, documentLoader })) as T & { proof: object };
  return withProofArray(signed) as T & { proof: object[] };
}

export type ProofCheck = { verified: true } | { verified: false; reason: string };

/**
 * Checks the document's proof (and the VC data model's shape and, unless `now` says otherwise, its
 * validity dates) without looking at its status: that is the verifier's status check (lib/verification), and a revoked
 * credential's signature is still its issuer's. The reason of a failure is the library's own words.
 */
export async function verifyDocumentProof(
  document: object,
  documentLoader: DocumentLoader,
  options: { now?: Date } = {},
): Promise<ProofCheck> {
  const suite = new DataIntegrityProof({ cryptosuite });
  let result: vc.VerifyResult;
  try {
    result = await vc.verifyCredential({
      credential: document,
      suite,
      documentLoader,
      checkStatus: statusNotChecked,
      ...(options.now ? { now: options.now } : {}),
    });
  } catch (error) {
    return { verified: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (result.verified) return { verified: true };
  return { verified: false, reason: firstErrorMessage(result) };
}

// The library insists on a status checker when a credential has a credentialStatus; the proof check
// deliberately leaves status to the verifier's status check.
const statusNotChecked = async () => ({ verified: true });

function firstErrorMessage(result: vc.VerifyResult): string {
  const errors: unknown[] = [];
  const collect = (e: unknown) => {
    if (!e) return;
    if (Array.isArray(e)) e.forEach(collect);
    else errors.push(e);
  };
  collect(result.error);
  for (const r of (result.results ?? []) as { error?: unknown }[]) collect(r.error);
  const first = errors.find((e): e is Error & { errors?: unknown[] } => e instanceof Error);
  const nested = first?.errors?.find((e) => e instanceof Error);
  return nested?.message ?? first?.message ?? "the proof did not verify";
}
