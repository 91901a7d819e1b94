// The one-time values of the OpenID4VCI flow (pre-authorized codes, access tokens, nonces): 256 random
// bits, base64url, handed out once; only their SHA-256 hash is stored, so a copy of the database gives
// no usable code, token or nonce. They are random, so a plain hash (no salt, no slow hash) suffices.
import { createHash, randomBytes } from "node:crypto";

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
