// The metadata of the organization's OAuth authorization server (RFC 8414): the pre-authorized code
// grant and its token endpoint. Served at /.well-known/oauth-authorization-server/organizations/<slug>
// (path insertion) and /organizations/<slug>/.well-known/oauth-authorization-server (appended, as some
// wallet apps look): next.config.mjs rewrites both here.
import { oid4vciEndpoint, oid4vciPreflight } from "@/lib/api/oid4vci-endpoint";
import { readOnlyRoute } from "@/lib/api/public-endpoint";
import { authorizationServerMetadataFor } from "@/lib/oid4vci/metadata-documents";

export const GET = oid4vciEndpoint({ cache: "public, max-age=60" }, async ({ params }) => ({
  status: 200,
  body: await authorizationServerMetadataFor(params.id),
}));
export const OPTIONS = oid4vciPreflight;
export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
