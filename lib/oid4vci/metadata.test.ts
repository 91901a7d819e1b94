import { describe, expect, it } from "vitest";
import {
  authorizationServerMetadata,
  credentialIssuerMetadata,
  issuerMetadataResult,
  openid4vciIssuer,
  OPEN_BADGE_CONFIGURATION_ID,
} from "./metadata";

const org = { id: "org_1", slug: "acme", name: "Acme <Academy>", logoMimeType: "image/png", updatedAt: new Date(0) };

describe("OpenID4VCI metadata", () => {
  it("is accepted by the library's own schemas, with the Open Badge configuration", () => {
    const metadata = credentialIssuerMetadata(org);
    expect(metadata.credential_issuer).toMatch(/\/organizations\/acme$/);
    expect(metadata.credential_configurations_supported[OPEN_BADGE_CONFIGURATION_ID]).toMatchObject({ format: "ldp_vc" });
    expect(authorizationServerMetadata(org).grant_types_supported).toEqual(["urn:ietf:params:oauth:grant-type:pre-authorized_code"]);
  });

  it("makes a credential offer by value", async () => {
    const { credentialOffer, credentialOfferObject } = await openid4vciIssuer().createCredentialOffer({
      issuerMetadata: issuerMetadataResult(org),
      credentialConfigurationIds: [OPEN_BADGE_CONFIGURATION_ID],
      grants: { "urn:ietf:params:oauth:grant-type:pre-authorized_code": { "pre-authorized_code": "code" } },
      credentialOfferScheme: "openid-credential-offer://",
    });
    expect(credentialOffer.startsWith("openid-credential-offer://?credential_offer=")).toBe(true);
    expect(credentialOfferObject.credential_configuration_ids).toEqual([OPEN_BADGE_CONFIGURATION_ID]);
  });
});
