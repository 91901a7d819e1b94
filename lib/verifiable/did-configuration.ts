// The DIF Well-Known DID Configuration of an organization with a verified domain: the file it
// publishes at https://<domain>/.well-known/did-configuration.json so that anyone can check that
// whoever controls that website also controls the organization's DID (and so signed its
// credentials). It holds one Domain Linkage Credential in the JSON-LD form the DIF specification
// describes: VC Data Model 1.1 with issuanceDate and expirationDate, issuer and subject the
// organization's DID, `origin` the website, signed with the organization's current key
// (eddsa-rdfc-2022). Keys stay in the DID document after a rotation, so a published file keeps
// verifying until it expires.
import { notFound } from "../core/errors";
import { issuerIdentityBySlug } from "../domains/service";
import { issuerSigner } from "../issuers/service";
import { DATA_INTEGRITY_V2_CONTEXT, DID_CONFIGURATION_CONTEXT, VC_V1_CONTEXT } from "./contexts";
import { ownDocumentLoader } from "./service";
import { signDocument } from "./signing";

/** How long a published file vouches for the link: long enough not to be a chore, short enough to lapse. */
export const DOMAIN_LINKAGE_YEARS = 5;

/** Where the organization publishes the file on its website. */
export function didConfigurationPublishUrl(domain: string): string {
  return `https://${domain}/.well-known/did-configuration.json`;
}

/** Whole seconds: VC 1.1's dates are xsd:dateTime, and some verifiers' parsers refuse fractions. */
const stamp = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

export function buildDomainLinkageCredential(input: { did: string; domain: string; issuedAt: Date }) {
  const expires = new Date(input.issuedAt);
  expires.setUTCFullYear(expires.getUTCFullYear() + DOMAIN_LINKAGE_YEARS);
  return {
    "@context": [VC_V1_CONTEXT, DID_CONFIGURATION_CONTEXT, DATA_INTEGRITY_V2_CONTEXT],
    type: ["VerifiableCredential", "DomainLinkageCredential"],
    issuer: input.did,
    issuanceDate: stamp(input.issuedAt),
    expirationDate: stamp(expires),
    credentialSubject: { id: input.did, origin: `https://${input.domain}` },
  };
}

/**
 * `did-configuration.json` for the organization `slug`, signed now; not_found when the organization
 * is unknown or has no verified domain (there is nothing to link).
 */
export async function didConfiguration(slug: string, now = new Date()): Promise<{ document: object; domain: string }> {
  const identity = await issuerIdentityBySlug(slug);
  if (!identity?.verifiedDomain) throw notFound("DID configuration (the organization has no verified domain)");
  const unsigned = buildDomainLinkageCredential({ did: identity.did, domain: identity.verifiedDomain, issuedAt: now });
  const signed = await signDocument(unsigned, await issuerSigner({ id: identity.organizationId, slug }), ownDocumentLoader());
  return { document: { "@context": DID_CONFIGURATION_CONTEXT, linked_dids: [signed] }, domain: identity.verifiedDomain };
}
