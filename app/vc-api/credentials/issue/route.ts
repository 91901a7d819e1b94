// POST /vc-api/credentials/issue (W3C VC API; docs/api.md, VC API): an API token's organization signs
// a VC 2.0 credential, with a status entry of its lists. 201 {"verifiableCredential"}.
import { vcApiEndpoint } from "@/lib/api/vc-api-endpoint";
import { issueThroughVcApi } from "@/lib/verifiable/vc-api";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const POST = vcApiEndpoint(async ({ caller, body }) => ({
  status: 201,
  body: { verifiableCredential: await issueThroughVcApi(caller.organization, body) },
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
