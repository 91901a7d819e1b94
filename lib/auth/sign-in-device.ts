// The device cookie: a browser's proof that it signed in to an account before. Set at every
// successful dashboard sign-in, HttpOnly, for 180 days. While an account is guarded (too many wrong
// passwords; sign-in-throttle.ts), a password is checked only from a browser whose cookie names that
// account. The value names the account (its user id), the account's session version when it was set (so
// "sign out everywhere", a password change or a reset, which raise it, also end every browser's standing
// as a known one), an expiry and a random nonce, signed with an
// HMAC under a key derived from the app secret: it carries no secret of the user's, cannot be made or
// altered without the app secret, and one made for another account opens nothing here.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { appSecret } from "../app-secret";

export const DEVICE_COOKIE_LIFETIME_SECONDS = 180 * 24 * 3600;
const VERSION = "d2";

/** The cookie's name; `__Host-` (Secure, whole site, no Domain) when the site is served over https. */
export function deviceCookieName(secure: boolean): string {
  return secure ? "__Host-cis.sign-in-device" : "cis.sign-in-device";
}

function signature(body: string): Buffer {
  const key = createHmac("sha256", appSecret()).update("dashboard sign-in device cookie").digest();
  return createHmac("sha256", key).update(body).digest();
}

/** A new cookie value for a browser that has just signed in to `userId`, whose session version is `sessionVersion`. */
export function deviceCookieValue(userId: string, sessionVersion: number, now = Date.now()): string {
  const body = [
    VERSION,
    userId,
    sessionVersion,
    Math.floor(now / 1000) + DEVICE_COOKIE_LIFETIME_SECONDS,
    randomBytes(12).toString("base64url"),
  ].join(".");
  return `${body}.${signature(body).toString("base64url")}`;
}

/**
 * The account a genuine, unexpired cookie value names, and the browser's own key (for per-browser
 * limits; the signature, which no other cookie shares). Null for anything else.
 */
export function readDeviceCookie(
  value: string | null | undefined,
  now = Date.now(),
): { userId: string; sessionVersion: number; deviceKey: string } | null {
  if (!value || value.length > 300) return null;
  const parts = value.split(".");
  if (parts.length !== 6 || parts[0] !== VERSION) return null;
  const [, userId, sessionVersion, expires, , mac] = parts as [string, string, string, string, string, string];
  const expected = signature(parts.slice(0, 5).join("."));
  // Only the one spelling the service wrote: base64url decoding forgives padding, stray characters and
  // a last character's unused bits, and each such spelling of one genuine cookie would otherwise count
  // as a browser of its own in the per-browser limit.
  if (!/^[A-Za-z0-9_-]{43}$/.test(mac)) return null;
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || mac !== expected.toString("base64url")) return null;
  if (!/^\d+$/.test(expires) || Number(expires) * 1000 <= now || !/^\d+$/.test(sessionVersion)) return null;
  return { userId, sessionVersion: Number(sessionVersion), deviceKey: mac };
}

/** The value of cookie `name` in a Cookie request header, or null. */
export function cookieFromHeader(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
