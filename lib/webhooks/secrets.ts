// Webhook signing secrets: made here, shown once (on create and rotate), kept sealed at rest under a
// key derived from the app secret (lib/issuers/key-encryption.ts), bound to their endpoint so a sealed
// secret copied onto another endpoint does not open.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
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
 */
export function signatureHeaders(
  eventId: string,
  payload: string,
  secrets: readonly string[],
  at: Date = new Date(),
): Record<string, string> {
  // The library signs whole seconds of `at`; the header carries the same second.
  const seconds = Math.floor(at.getTime() / 1000);
  const signedAt = new Date(seconds * 1000);
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, signedAt, payload)).join(" "),
  };
}
