// POST /vc-api/credentials/verify (W3C VC API, public, rate-limited like /api/verify): body
// {"verifiableCredential", "options"?}. 200 {"verified": true, "checks", "warnings", "errors"} when
// every check passed; 400 with "verified": false and an error per failed check otherwise. A body that
// is not such a request (not JSON, too deep, too large, missing members) is the usual error envelope.
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { parseJsonObject, readBody } from "@/lib/api/endpoint";
import { publicEndpoint, otherMethodsRefused } from "@/lib/api/public-endpoint";
import { MAX_JSON_REQUEST_BYTES, VERIFY_RATE_LIMIT } from "@/lib/verification/request";
import { VerifyCredentialBody, verifyForVcApi } from "@/lib/verification/vc-api";

export const POST = publicEndpoint({ rateLimit: VERIFY_RATE_LIMIT }, async ({ request }) => {
  const parsed = safeParseWithDetails(VerifyCredentialBody, parseJsonObject(await readBody(request, MAX_JSON_REQUEST_BYTES)));
  if (!parsed.ok) throw invalidFields(parsed.details);
  const result = await verifyForVcApi("credential", parsed.data.verifiableCredential, parsed.data.options);
  return Response.json(result, { status: result.verified ? 200 : 400, headers: { "Cache-Control": "no-store" } });
});

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
