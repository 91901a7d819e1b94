// The organization's OpenID4VCI Credential Issuer metadata. Served at
// /.well-known/openid-credential-issuer/organizations/<slug>, where OpenID4VCI 1.0 looks for an issuer
// whose identifier has a path, and at /organizations/<slug>/.well-known/openid-credential-issuer, where
// its drafts (and wallet apps built on them) look: next.config.mjs rewrites both here, since Next does
// not route folders whose names start with a dot.
import { oid4vciEndpoint, oid4vciPreflight } from "@/lib/api/oid4vci-endpoint";
import { readOnlyRoute } from "@/lib/api/public-endpoint";
import { credentialIssuerMetadataFor } from "@/lib/oid4vci/metadata-documents";

export const GET = oid4vciEndpoint({ cache: "public, max-age=60" }, async ({ params }) => ({
  status: 200,
  body: await credentialIssuerMetadataFor(params.id),
}));
export const OPTIONS = oid4vciPreflight;
export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
