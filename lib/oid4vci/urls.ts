// Where each organization's OpenID4VCI Credential Issuer lives. The issuer identifier is the
// organization's public URL, and its metadata is found by inserting the well-known segment between
// the host and that path (OpenID4VCI 1.0, metadata retrieval), as for the authorization server's.
import { config } from "../config";

export function credentialIssuerId(slug: string): string {
  return `${config().publicUrl}/organizations/${encodeURIComponent(slug)}`;
}

export function oid4vciEndpoints(slug: string) {
  const issuer = credentialIssuerId(slug);
  return {
    issuer,
    token: `${issuer}/oid4vci/token`,
    nonce: `${issuer}/oid4vci/nonce`,
    credential: `${issuer}/oid4vci/credential`,
    issuerMetadata: `${config().publicUrl}/.well-known/openid-credential-issuer/organizations/${encodeURIComponent(slug)}`,
    authorizationServerMetadata: `${config().publicUrl}/.well-known/oauth-authorization-server/organizations/${encodeURIComponent(slug)}`,
  };
}
