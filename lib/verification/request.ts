// The public verification route's request: a JSON body naming what to verify, or the bytes of a baked
// PNG. Validated here so the route reads like its table, and shared with the /verify page's client.
import { z } from "zod";
import { jsonDepthExcess } from "../core/json-text";
import type { VerificationInput } from "./verify-document";

/** A verification may fetch from other hosts and canonicalizes RDF: a few per second per client address, for every public verify route. */
export const VERIFY_RATE_LIMIT = { name: "verify", perSecond: 2, burst: 20 };

/** A credential of 256 KiB (format-check's limit) as an escaped JSON string, with room to spare. */
export const MAX_JSON_REQUEST_BYTES = 1024 * 1024;
/** A design's PNG is a few hundred KiB; a baked one adds the credential. */
export const MAX_PNG_REQUEST_BYTES = 8 * 1024 * 1024;
/** A certificate PDF with its fonts, artwork and embedded credential.json. */
export const MAX_PDF_REQUEST_BYTES = 8 * 1024 * 1024;

/** JSON text sent as a string is limited in depth like the request body around it: too deep is invalid input. */
function refuseDeepJson(text: string, ctx: z.RefinementCtx): void {
  const excess = jsonDepthExcess(text);
  if (excess) ctx.addIssue({ code: "custom", message: excess.message });
}

export const VerifyRequestBody = z.union([
  z.strictObject({ url: z.string().trim().min(1, "must not be empty").max(2048, "must be at most 2048 characters") }),
  z.strictObject({ json: z.string().min(1, "must not be empty").superRefine(refuseDeepJson) }),
  z.strictObject({ credential: z.record(z.string(), z.unknown()) }),
]);

export function verificationInputOf(body: z.output<typeof VerifyRequestBody>): VerificationInput {
  if ("url" in body) return { kind: "url", url: body.url };
  if ("json" in body) return { kind: "json", json: body.json };
  return { kind: "json", json: JSON.stringify(body.credential) };
}
