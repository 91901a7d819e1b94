// POST /api/verify: verifies a credential for anyone (the /verify page, scripts). Body: JSON
// {"url"} | {"json"} | {"credential"} (at most 1 MiB), or the bytes of a baked PNG with
// Content-Type image/png or of a PDF carrying credential.json with Content-Type application/pdf (at
// most 8 MiB each; larger is a 413). 200 with the report for every credential, good or bad; the
// error envelope only for a request that names nothing to verify.
import { ApiError, invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { parseJsonObject, readBody, readBodyBytes } from "@/lib/api/endpoint";
import { publicEndpoint } from "@/lib/api/public-endpoint";
import {
  MAX_JSON_REQUEST_BYTES,
  MAX_PDF_REQUEST_BYTES,
  MAX_PNG_REQUEST_BYTES,
  VERIFY_RATE_LIMIT,
  verificationInputOf,
  VerifyRequestBody,
} from "@/lib/verification/request";
import { verifyCredentialDocument, type VerificationInput } from "@/lib/verification/verify-document";

async function inputOf(request: Request): Promise<VerificationInput> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "image/png") return { kind: "png", bytes: await readBodyBytes(request, MAX_PNG_REQUEST_BYTES) };
  if (type === "application/pdf") return { kind: "pdf", bytes: await readBodyBytes(request, MAX_PDF_REQUEST_BYTES) };
  if (type !== "application/json") {
    throw new ApiError(
      "validation_error",
      'Send JSON ({"url"}, {"json"} or {"credential"}) with Content-Type application/json, a PNG with Content-Type image/png or a PDF with Content-Type application/pdf.',
      {
        details: [{ path: "Content-Type", message: "must be application/json, image/png or application/pdf" }],
      },
    );
  }
  const parsed = safeParseWithDetails(VerifyRequestBody, parseJsonObject(await readBody(request, MAX_JSON_REQUEST_BYTES)));
  if (!parsed.ok) throw invalidFields(parsed.details);
  return verificationInputOf(parsed.data);
}

export const POST = publicEndpoint({ rateLimit: VERIFY_RATE_LIMIT }, async ({ request }) => {
  const report = await verifyCredentialDocument(await inputOf(request));
  return Response.json(report, { headers: { "Cache-Control": "no-store" } });
});
