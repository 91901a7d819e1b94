// What secret key material would look like if it leaked: the Multikey form of an Ed25519 secret key
// (multicodec 0x1300: base58btc starting "zrv"), its encrypted form at rest, or the words naming it.
//
// Signatures are base58btc too: an earlier pattern, case-insensitive and matching anywhere, found "Zrv"
// inside a proofValue about once in a few hundred documents (a failed CI run on 2026-11-27). Base58 is
// case-sensitive, a leaked key would be a string of its own rather than the middle of another, and the
// proofValue fields are taken out before looking (each one is checked by verifying the signature).
const SECRET_KEY_MULTIBASE = /(?<![1-9A-HJ-NP-Za-km-z])zrv[1-9A-HJ-NP-Za-km-z]{40,}/;
const ENCRYPTED_OR_NAMED = /v1\.[\w-]{16}\.[\w-]{40,}\.[\w-]{22}|secretKey|privateKey|encryptedSecret/i;
const PROOF_VALUE = /"proofValue"\s*:\s*"z[1-9A-HJ-NP-Za-km-z]+"/g;

/** The first thing in `text` that looks like secret key material, or null: `expect(secretMaterialIn(text)).toBeNull()`. */
export function secretMaterialIn(text: string): string | null {
  const withoutSignatures = text.replace(PROOF_VALUE, '"proofValue":"(signature)"');
  return (SECRET_KEY_MULTIBASE.exec(withoutSignatures) ?? ENCRYPTED_OR_NAMED.exec(withoutSignatures))?.[0] ?? null;
}
