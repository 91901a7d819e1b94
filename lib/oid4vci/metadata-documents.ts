// The two metadata documents as the routes serve them, for an organization named by its slug.
import { authorizationServerMetadata, credentialIssuerMetadata } from "./metadata";
import { issuingOrganization } from "./service";

export async function credentialIssuerMetadataFor(slug: string) {
  return credentialIssuerMetadata(await issuingOrganization(slug));
}

export async function authorizationServerMetadataFor(slug: string) {
  return authorizationServerMetadata(await issuingOrganization(slug));
}
