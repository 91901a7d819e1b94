// Opaque, tamper-evident pagination cursors: base64url(JSON payload) + "." + truncated HMAC-SHA256.
// A cursor names the list it belongs to (`scope`), so one list's cursor is rejected by another.
import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "../app-secret";

function sign(payload: string): string {
  return createHmac("sha256", appSecret()).update(payload).digest().subarray(0, 16).toString("base64url");
}

export function encodeCursor(scope: string, data: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify({ s: scope, ...data })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/** The cursor's data, or null when it is garbled, forged or from another list. */
export function decodeCursor(scope: string, cursor: string): Record<string, unknown> | null {
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown;
    if (typeof data !== "object" || data === null || (data as { s?: unknown }).s !== scope) return null;
    const { s: _scope, ...rest } = data as Record<string, unknown>;
    return rest;
  } catch {
    return null;
  }
}
