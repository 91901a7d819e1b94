// Webhook signing secrets: made here, shown once (on create and rotate), kept sealed at rest under a
// key derived from the app secret (lib/issuers/key-encryption.ts), bound to their endpoint so a sealed
// secret copied onto another endpoint does not open.
import { createHmac, randomBytes } from "node:crypto";
import { appSecret } from "../app-secret";
import { openSecret, sealSecret, type SealContext } from "../issuers/key-encryption";

const SECRET_PREFIX = "whsec_";
/** 32 random bytes: the HMAC-SHA256 key (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 32;
/** How long a rotated-out secret keeps signing alongside the new one. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 3600_000;

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

function sealContext(endpoint: { id: string; organizationId: string }): SealContext {
  return { purpose: "cis webhook-secret encryption v1", binding: [endpoint.id, endpoint.organizationId] };
}

export class WebhookSecretError extends Error {
  constructor() {
    super("A webhook signing secret could not be decrypted: the app secret changed or the stored secret was altered.");
  }
}

export function sealSigningSecret(secret: string, endpoint: { id: string; organizationId: string }): string {
  return sealSecret(secret, sealContext(endpoint), appSecret());
}

export function openSigningSecret(sealed: string, endpoint: { id: string; organizationId: string }): string {
  return openSecret(sealed, sealContext(endpoint), appSecret(), () => new WebhookSecretError());
}

/**
 * The Standard Webhooks headers of one attempt: signed now (receivers refuse old timestamps, so a retry
 * is signed afresh), with every active secret, space-separated, newest first.
 *
 * The scheme is Standard Webhooks' v1: base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the
 * secret's bytes after `whsec_`. Node's HMAC computes it; the standardwebhooks library (the format's
 * reference) signs with a SHA-256 written in JavaScript, which cost about an eighth of a delivery's CPU
 * at full speed (docs/benchmarks.md). The tests verify every signature with that library.
 */
export function signatureHeaders(
  eventId: string,
  payload: string,
  secrets: readonly string[],
  at: Date = new Date(),
): Record<string, string> {
  // Whole seconds, as the header carries them.
  const seconds = Math.floor(at.getTime() / 1000);
  const signed = `${eventId}.${seconds}.${payload}`;
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets.map((secret) => `v1,${createHmac("sha256", secretKey(secret)).update(signed).digest("base64")}`).join(" "),
  };
}

/** The HMAC key of a `whsec_` secret: the bytes its base64 part encodes. */
function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  if (key.length === 0) throw new Error("A webhook signing secret is empty.");
  return key;
}
