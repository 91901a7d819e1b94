// GET {WALLET_URL}/credentials/<publicId>/credential.json: the credential as a signed Open Badges 3.0
// credential, public like the wallet page (404 where the page is: unknown, draft, scheduled, deleted).
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { jsonDocumentResponse } from "@/lib/api/document-response";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { publicOpenBadgeCredential } from "@/lib/verifiable/service";
import { cacheControlUnlessHidden } from "@/lib/wallet/privacy";

// A content change is a new document (and ETag); a revocation is not (the status list says it), so a
// short max-age only delays seeing a renamed credential, never a revoked one as valid.
const CACHE_CONTROL = "public, max-age=60";

export const GET = publicEndpoint({ params: z.strictObject({ publicId: z.string().max(100) }) }, async ({ request, params }) => {
  const cacheControl = await cacheControlUnlessHidden(params.publicId, request, CACHE_CONTROL);
  const document = await publicOpenBadgeCredential(params.publicId);
  if (!document) throw new ApiError("not_found", "Credential not found.");
  return jsonDocumentResponse(request, document, cacheControl);
});

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
