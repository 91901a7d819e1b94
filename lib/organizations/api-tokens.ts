// API access tokens: `cis_` + 40 random base62 characters. Only the SHA-256 of a token is stored;
// its first 12 characters (the prefix) are kept in clear to list and revoke it.
import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const TOKEN_PATTERN = /^cis_[0-9A-Za-z]{40}$/;
export const TOKEN_PREFIX_LENGTH = 12;

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function generateApiToken(): { token: string; prefix: string; tokenHash: string } {
  let body = "";
  // Rejection sampling keeps every character equally likely.
  while (body.length < 40) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 40) body += BASE62[byte % 62];
    }
  }
  const token = `cis_${body}`;
  return { token, prefix: token.slice(0, TOKEN_PREFIX_LENGTH), tokenHash: hashApiToken(token) };
}
