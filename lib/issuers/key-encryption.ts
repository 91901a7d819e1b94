// Secrets at rest (issuer secret keys; webhook signing secrets use the same sealSecret/openSecret):
// AES-256-GCM (node:crypto) under a key derived from the app secret with HKDF-SHA256, a fresh random
// 96-bit nonce per encryption. The row's identity (for an issuer key: key id, organization, public key)
// is the additional authenticated data, so a ciphertext copied onto another row, or onto the same row
// with its public key changed, is refused rather than decrypted into the wrong key.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// The HKDF "info" names what the derived key is for, so the app secret's other uses (cursors,
// sessions, webhook secrets) never share a key with this one.
const HKDF_INFO = "cis issuer-key encryption v1";

export class KeyDecryptionError extends Error {
  constructor(message = "The issuer key could not be decrypted: the app secret changed or the stored key was altered.") {
    // Says nothing about the key or the secret: only that this ciphertext is not ours to open.
    super(message);
  }
}

/** What binds a ciphertext to its row. */
export type KeyBinding = { keyId: string; organizationId: string; publicKeyMultibase: string };

/**
 * What a sealed secret is for and which row it belongs to: `purpose` is the HKDF "info" (each use of
 * the app secret gets its own key), `binding` the row's identity, authenticated with the ciphertext.
 */
export type SealContext = { purpose: string; binding: readonly string[] };

function encryptionKey(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, Buffer.alloc(0), purpose, 32));
}

function associatedData(binding: readonly string[]): Buffer {
  return Buffer.from(JSON.stringify(binding));
}

/** Encrypts any secret kept at rest (issuer keys, webhook signing secrets): `v1.<nonce>.<ciphertext>.<tag>`, each base64url. */
export function sealSecret(secret: string, context: SealContext, appSecret: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(appSecret, context.purpose), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(context.binding));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, nonce, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The secret `sealSecret` sealed under the same context, or `failure()` thrown. */
export function openSecret(stored: string, context: SealContext, appSecret: string, failure: () => Error): string {
  const [version, nonce, ciphertext, tag, ...rest] = stored.split(".");
  if (version !== VERSION || nonce === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) throw failure();
  const nonceBytes = Buffer.from(nonce, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  if (nonceBytes.length !== NONCE_BYTES || tagBytes.length !== TAG_BYTES) throw failure();
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey(appSecret, context.purpose), nonceBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(context.binding));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw failure();
  }
}

function issuerKeyContext(binding: KeyBinding): SealContext {
  return { purpose: HKDF_INFO, binding: [binding.keyId, binding.organizationId, binding.publicKeyMultibase] };
}

export function encryptSecretKey(secretKey: string, binding: KeyBinding, appSecret: string): string {
  return sealSecret(secretKey, issuerKeyContext(binding), appSecret);
}

export function decryptSecretKey(stored: string, binding: KeyBinding, appSecret: string): string {
  return openSecret(stored, issuerKeyContext(binding), appSecret, () => new KeyDecryptionError());
}
