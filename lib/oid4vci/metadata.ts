// An organization's OpenID4VCI Credential Issuer metadata and its authorization server's (the issuer
// is its own authorization server and supports only the pre-authorized code grant). Both are built
// and checked by the @openid4vc libraries' own schemas, so a shape they refuse never leaves.
import {
  Oauth2AuthorizationServer,
  preAuthorizedCodeGrantIdentifier,
  setGlobalConfig,
  type AuthorizationServerMetadata,
} from "@openid4vc/oauth2";
import { Openid4vciIssuer, Openid4vciVersion, type CredentialIssuerMetadata, type IssuerMetadataResult } from "@openid4vc/openid4vci";
import { config } from "../config";
import { OPEN_BADGES_V3_CONTEXT, VC_V2_CONTEXT } from "../verifiable/contexts";
import { CRYPTOSUITE } from "../verifiable/signing";
import { oid4vciCallbacks, PROOF_SIGNING_ALGORITHMS } from "./callbacks";
import { oid4vciEndpoints } from "./urls";

/** The one credential configuration every organization offers: its credentials as Open Badges 3.0. */
export const OPEN_BADGE_CONFIGURATION_ID = "OpenBadgeCredential";

export type IssuingOrganization = { id: string; slug: string; name: string; logoMimeType: string | null; updatedAt: Date };

// The libraries refuse http:// URLs in metadata and offers unless told otherwise. A deployment's
// PUBLIC_URL is https; a local one (npm start, the tests) is http on loopback, and should work too.
function allowLocalUrls(): void {
  setGlobalConfig({ allowInsecureUrls: !config().publicUrl.startsWith("https://") });
}

export function openid4vciIssuer(): Openid4vciIssuer {
  allowLocalUrls();
  return new Openid4vciIssuer({ callbacks: oid4vciCallbacks() });
}

export function oauth2AuthorizationServer(): Oauth2AuthorizationServer {
  allowLocalUrls();
  return new Oauth2AuthorizationServer({ callbacks: oid4vciCallbacks() });
}

function logoUri(org: IssuingOrganization): string | null {
  if (org.logoMimeType === null) return null;
  return `${config().publicUrl}/organizations/${encodeURIComponent(org.id)}/logo?v=${org.updatedAt.getTime().toString(36)}`;
}

function display(org: IssuingOrganization) {
  const logo = logoUri(org);
  return [{ name: org.name, ...(logo === null ? {} : { logo: { uri: logo, alt_text: org.name } }) }];
}

export function credentialIssuerMetadata(org: IssuingOrganization): CredentialIssuerMetadata {
  const urls = oid4vciEndpoints(org.slug);
  const credentialDisplay = [
    { name: "Open Badge", ...(logoUri(org) === null ? {} : { logo: { uri: logoUri(org)!, alt_text: org.name } }) },
  ];
  return openid4vciIssuer().createCredentialIssuerMetadata({
    credential_issuer: urls.issuer,
    authorization_servers: [urls.issuer],
    credential_endpoint: urls.credential,
    nonce_endpoint: urls.nonce,
    display: display(org),
    credential_configurations_supported: {
      [OPEN_BADGE_CONFIGURATION_ID]: {
        format: "ldp_vc",
        scope: OPEN_BADGE_CONFIGURATION_ID,
        credential_definition: {
          "@context": [VC_V2_CONTEXT, OPEN_BADGES_V3_CONTEXT],
          type: ["VerifiableCredential", "OpenBadgeCredential"],
        },
        cryptographic_binding_methods_supported: ["did:key", "did:jwk", "jwk"],
        credential_signing_alg_values_supported: [CRYPTOSUITE],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: PROOF_SIGNING_ALGORITHMS } },
        // Where OpenID4VCI 1.0 puts display; earlier drafts (and wallets built on them) read it one level up.
        credential_metadata: { display: credentialDisplay },
        display: credentialDisplay,
      },
    },
  });
}

export function authorizationServerMetadata(org: IssuingOrganization): AuthorizationServerMetadata {
  const urls = oid4vciEndpoints(org.slug);
  return oauth2AuthorizationServer().createAuthorizationServerMetadata({
    issuer: urls.issuer,
    token_endpoint: urls.token,
    grant_types_supported: [preAuthorizedCodeGrantIdentifier],
    token_endpoint_auth_methods_supported: ["none"],
    response_types_supported: [],
    "pre-authorized_grant_anonymous_access_supported": true,
  });
}

/** The metadata as the library's issuer functions take it. */
export function issuerMetadataResult(org: IssuingOrganization): IssuerMetadataResult {
  const credentialIssuer = credentialIssuerMetadata(org);
  return {
    originalDraftVersion: Openid4vciVersion.V1,
    credentialIssuer,
    authorizationServers: [authorizationServerMetadata(org)],
    knownCredentialConfigurations: openid4vciIssuer().getKnownCredentialConfigurationsSupported(credentialIssuer),
  };
}
