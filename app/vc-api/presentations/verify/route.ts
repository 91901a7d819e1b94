// POST /vc-api/presentations/verify (W3C VC API, public, rate-limited like /api/verify): body
// {"verifiablePresentation", "options"?: {"challenge"?, "domain"?}}. The holder's proof (when there is
// one) and every credential inside are checked: 200 with "verified": true only when all pass, else 400
// with an error per failed check. A body that is not such a request is the usual error envelope.
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { parseJsonObject, readBody } from "@/lib/api/endpoint";
import { publicEndpoint, otherMethodsRefused } from "@/lib/api/public-endpoint";
import { MAX_JSON_REQUEST_BYTES, VERIFY_RATE_LIMIT } from "@/lib/verification/request";
import { VerifyPresentationBody, verifyForVcApi } from "@/lib/verification/vc-api";

export const POST = publicEndpoint({ rateLimit: VERIFY_RATE_LIMIT }, async ({ request }) => {
  const parsed = safeParseWithDetails(VerifyPresentationBody, parseJsonObject(await readBody(request, MAX_JSON_REQUEST_BYTES)));
  if (!parsed.ok) throw invalidFields(parsed.details);
  const result = await verifyForVcApi("presentation", parsed.data.verifiablePresentation, parsed.data.options);
  return Response.json(result, { status: result.verified ? 200 : 400, headers: { "Cache-Control": "no-store" } });
});

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
