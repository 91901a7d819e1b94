// POST /organizations/<slug>/oid4vci/credential: the OpenID4VCI credential endpoint (Bearer access
// token, JSON credential request with a jwt proof of possession).
import { OID4VCI_RATE_LIMIT, oid4vciEndpoint, oid4vciPreflight } from "@/lib/api/oid4vci-endpoint";
import { readBody } from "@/lib/api/endpoint";
import { issueToHolder } from "@/lib/oid4vci/service";

// A request holds a configuration id and one proof JWT: a few KiB at most.
const MAX_REQUEST_BYTES = 64 * 1024;

export const POST = oid4vciEndpoint({ rateLimit: OID4VCI_RATE_LIMIT }, async ({ request, params }) => {
  const authorization = request.headers.get("authorization");
  const text = await readBody(request, MAX_REQUEST_BYTES);
  return { status: 200, body: await issueToHolder(params.id, authorization, text) };
});
export const OPTIONS = oid4vciPreflight;
