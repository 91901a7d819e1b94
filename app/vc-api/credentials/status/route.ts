// POST /vc-api/credentials/status (W3C VC API; docs/api.md, VC API): revokes a credential the token's
// organization signed through /vc-api/credentials/issue. Revocation is final; revoking again answers
// the same 200.
import { vcApiEndpoint } from "@/lib/api/vc-api-endpoint";
import { updateStatusThroughVcApi } from "@/lib/verifiable/vc-api";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const POST = vcApiEndpoint(async ({ caller, body }) => ({
  status: 200,
  body: await updateStatusThroughVcApi(caller.organization, body),
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
