// POST /vc-api/credentials/status (W3C VC API; docs/api.md, VC API): revokes a credential the token's
// organization signed through /vc-api/credentials/issue. Revocation is final; revoking again answers
// the same 200.
import { vcApiEndpoint } from "@/lib/api/vc-api-endpoint";
import { updateStatusThroughVcApi } from "@/lib/verifiable/vc-api";

export const POST = vcApiEndpoint(async ({ caller, body }) => ({
  status: 200,
  body: await updateStatusThroughVcApi(caller.organization, body),
}));
