// Proofs found valid, remembered by a digest of the signed document and of the DID document it was
// checked with. Whether a signature matches depends on nothing else: the moment it is checked at lies
// inside the document's own validity window (signature-check.ts), so the same bytes under the same keys
// verify the same way, and a credential a thousand guests check after a post is canonicalized once. A
// changed document, or a rotated or removed key, is another digest. Only successes are kept, never a
// proof that carries its own expiry, and the map is bounded (least recently used goes first).
import { createHash } from "node:crypto";

const MAX_REMEMBERED = 2048;
const remembered = new Map<string, true>();

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The memo key, or null when the outcome may change with time (a proof with `expires`). */
export function proofMemoKey(document: Record<string, unknown>, didDocument: unknown): string | null {
  const proofs = Array.isArray(document.proof) ? document.proof : [document.proof];
  if (proofs.some((proof) => isObject(proof) && "expires" in proof)) return null;
  return createHash("sha256").update(JSON.stringify(document)).update("\0").update(JSON.stringify(didDocument)).digest("base64url");
}

export function verifiedBefore(key: string | null): boolean {
  if (key === null || !remembered.has(key)) return false;
  remembered.delete(key); // refresh its place: most recently used last
  remembered.set(key, true);
  return true;
}

export function rememberVerified(key: string | null): void {
  if (key === null) return;
  remembered.delete(key);
  remembered.set(key, true);
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
}

/** For tests: how many proofs are remembered. */
export const rememberedCount = () => remembered.size;
