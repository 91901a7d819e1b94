// POST /organizations/<slug>/oid4vci/nonce: a fresh c_nonce for a proof of possession (OpenID4VCI 1.0).
import { OID4VCI_RATE_LIMIT, oid4vciEndpoint, oid4vciPreflight } from "@/lib/api/oid4vci-endpoint";
import { issueNonce } from "@/lib/oid4vci/service";

export const POST = oid4vciEndpoint({ rateLimit: OID4VCI_RATE_LIMIT }, async ({ params }) => ({
  status: 200,
  body: await issueNonce(params.id),
}));
export const OPTIONS = oid4vciPreflight;
