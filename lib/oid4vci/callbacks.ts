// The callbacks the @openid4vc libraries call for cryptography, implemented with jose and node:crypto.
// The server only ever verifies JWTs (a wallet's proof of possession): it signs none, since its access
// tokens are opaque random values (see service.ts), so signJwt refuses.
import { createHash, randomBytes } from "node:crypto";
import { HashAlgorithm, clientAuthenticationAnonymous, type JwtSigner } from "@openid4vc/oauth2";
import { compactVerify, importJWK } from "jose";
import { processSingleton } from "../core/process-singleton";
import { resolveHolderKey, type PublicJwk } from "./holder-keys";

/** The JWS algorithms a proof of possession may use: Ed25519 (both its names) and the NIST P curves. */
export const PROOF_SIGNING_ALGORITHMS = ["EdDSA", "Ed25519", "ES256", "ES384"];

const HASHES: Record<HashAlgorithm, string> = {
  [HashAlgorithm.Sha256]: "sha256",
  [HashAlgorithm.Sha384]: "sha384",
  [HashAlgorithm.Sha512]: "sha512",
};

async function signerJwk(signer: JwtSigner): Promise<PublicJwk | null> {
  if (signer.method === "jwk") return signer.publicJwk;
  if (signer.method === "did") return (await resolveHolderKey(signer.didUrl)).jwk;
  return null;
}

async function verifyJwt(signer: JwtSigner, jwt: { compact: string }) {
  const jwk = await signerJwk(signer);
  if (!jwk || !PROOF_SIGNING_ALGORITHMS.includes(signer.alg)) return { verified: false as const };
  try {
    await compactVerify(jwt.compact, await importJWK(jwk, signer.alg), { algorithms: [signer.alg] });
    return { verified: true as const, signerJwk: jwk as { kty: string } };
  } catch {
    return { verified: false as const, signerJwk: jwk as { kty: string } };
  }
}

export function oid4vciCallbacks() {
  return processSingleton("oid4vci.callbacks", () => ({
    hash: (data: Uint8Array, alg: HashAlgorithm) => new Uint8Array(createHash(HASHES[alg]).update(data).digest()),
    generateRandom: (byteLength: number) => new Uint8Array(randomBytes(byteLength)),
    verifyJwt,
    signJwt: async (): Promise<never> => {
      throw new Error("This issuer signs no JWTs: its access tokens are opaque.");
    },
    clientAuthentication: clientAuthenticationAnonymous(),
  }));
}
