// Issuer secret keys at rest: AES-256-GCM (node:crypto) under a key derived from the app secret with
// HKDF-SHA256, a fresh random 96-bit nonce per encryption. The row's identity (key id, organization,
// public key) is the additional authenticated data, so a ciphertext copied onto another row, or onto
// the same row with its public key changed, is refused rather than decrypted into the wrong key.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// The HKDF "info" names what the derived key is for, so the app secret's other uses (cursors,
// sessions) never share a key with this one.
const HKDF_INFO = "cis issuer-key encryption v1";

export class KeyDecryptionError extends Error {
  constructor() {
    // Says nothing about the key or the secret: only that this ciphertext is not ours to open.
    super("The issuer key could not be decrypted: the app secret changed or the stored key was altered.");
  }
}

/** What binds a ciphertext to its row. */
export type KeyBinding = { keyId: string; organizationId: string; publicKeyMultibase: string };

function encryptionKey(appSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, Buffer.alloc(0), HKDF_INFO, 32));
}

function associatedData(binding: KeyBinding): Buffer {
  return Buffer.from(JSON.stringify([binding.keyId, binding.organizationId, binding.publicKeyMultibase]));
}

/** `v1.<nonce>.<ciphertext>.<tag>`, each base64url. */
export function encryptSecretKey(secretKey: string, binding: KeyBinding, appSecret: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(appSecret), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(binding));
  const ciphertext = Buffer.concat([cipher.update(secretKey, "utf8"), cipher.final()]);
  return [VERSION, nonce, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function decryptSecretKey(stored: string, binding: KeyBinding, appSecret: string): string {
  const [version, nonce, ciphertext, tag, ...rest] = stored.split(".");
  if (version !== VERSION || nonce === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) throw new KeyDecryptionError();
  const nonceBytes = Buffer.from(nonce, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  if (nonceBytes.length !== NONCE_BYTES || tagBytes.length !== TAG_BYTES) throw new KeyDecryptionError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey(appSecret), nonceBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(binding));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new KeyDecryptionError();
  }
}
