// The recipient's email in a signed credential: as an Open Badges IdentityHash, `sha256$<hex>` of the
// lower-cased address followed by a salt, so the document proves "awarded to whoever holds this
// address" without publishing the address. The salt is derived from the credential id under a key
// from the app secret: the same credential always gets the same salt (re-signing gives the same
// hash), and nobody without the secret can precompute hashes of likely addresses for it.
import { createHash, createHmac, hkdfSync } from "node:crypto";

// Names what the derived key is for, so the app secret's other uses never share a key with this one.
const HKDF_INFO = "cis identity-hash salt v1";

function saltKey(appSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, Buffer.alloc(0), HKDF_INFO, 32));
}

/** The credential's salt: 128 bits, hex. */
export function identitySalt(credentialId: string, appSecret: string): string {
  return createHmac("sha256", saltKey(appSecret)).update(credentialId).digest("hex").slice(0, 32);
}

/** `sha256$<hex>` of the lower-cased email followed by the salt (UTF-8), as Open Badges 3.0 says. */
export function emailIdentityHash(email: string, salt: string): string {
  return `sha256$${createHash("sha256")
    .update(email.trim().toLowerCase() + salt, "utf8")
    .digest("hex")}`;
}
