// The proof suites this verifier reads, as @digitalbazaar/vc wants them: Data Integrity with
// eddsa-rdfc-2022 (what we sign) and ecdsa-rdfc-2019, and the older Ed25519Signature2020 that many
// wallets and issuers still use. Fresh instances per verification: suites keep per-run state.
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as ecdsaRdfc2019 } from "@digitalbazaar/ecdsa-rdfc-2019-cryptosuite";
import { Ed25519Signature2020 } from "@digitalbazaar/ed25519-signature-2020";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";

export const SUPPORTED_PROOFS = ["DataIntegrityProof/eddsa-rdfc-2022", "DataIntegrityProof/ecdsa-rdfc-2019", "Ed25519Signature2020"];

export function verificationSuites(): unknown[] {
  return [
    new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
    new DataIntegrityProof({ cryptosuite: ecdsaRdfc2019 }),
    new Ed25519Signature2020(),
  ];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The proof of `document` the issuer check looks at, with the key it names: the first supported proof
 * made with `signerDid`'s keys (the issuer's, in a set or chain with others' proofs), else the first
 * supported proof; null when none.
 */
export function supportedProof(document: Record<string, unknown>, signerDid?: string): { verificationMethod: string; name: string } | null {
  const proofs = Array.isArray(document.proof) ? document.proof : [document.proof];
  const supported: { verificationMethod: string; name: string }[] = [];
  for (const proof of proofs) {
    if (!isObject(proof) || typeof proof.verificationMethod !== "string") continue;
    const name = proof.type === "DataIntegrityProof" ? `DataIntegrityProof/${String(proof.cryptosuite)}` : String(proof.type);
    if (SUPPORTED_PROOFS.includes(name)) supported.push({ verificationMethod: proof.verificationMethod, name });
  }
  return supported.find((proof) => proof.verificationMethod.split("#")[0] === signerDid) ?? supported[0] ?? null;
}
