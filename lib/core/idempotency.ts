// The rules of idempotent retries (docs/api.md, Idempotent retries) that need no database: what a key may be,
// which requests may carry one, and what makes two requests "the same" (their fingerprint).
import { createHash } from "node:crypto";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/** Methods whose requests may carry a key; any other method ignores the header. */
export const IDEMPOTENT_METHODS: readonly string[] = ["POST", "PATCH", "DELETE"];

/** How long an answer is kept for a retry. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claimed key waits for its request to answer. A request of this API answers in well under
 * a second; a claim this old belongs to a process that died mid-request, and the key is free again
 * rather than stuck until the row's 24 hours are over.
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

/** 1..255 visible ASCII characters (U+0021–U+007E: no space, no controls). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Why a header value is not a key, or null. */
export function idempotencyKeyProblem(value: string): string | null {
  if (value.length === 0) return "must not be empty";
  if (value.length > 255) return "must be at most 255 characters";
  if (!KEY.test(value)) return "must be visible ASCII characters only (no spaces, controls or non-ASCII)";
  return null;
}

/**
 * JSON text with every object's keys sorted, so that two bodies that parse to the same value give the
 * same text whatever their key order or spacing. Arrays keep their order: it is part of the value.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/** SHA-256 (hex) of method, path and the canonical JSON of the parsed body (undefined: no body). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()}\n${path}\n${canonicalJson(body)}`)
    .digest("hex");
}
