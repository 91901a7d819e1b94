// The credential offer's shape, for the OpenAPI reference (built by service.ts, never parsed).
import { z } from "zod";

export const CredentialOfferResponse = z.object({
  credentialOffer: z
    .object({
      credential_issuer: z.string().describe("The organization's Credential Issuer identifier, `{PUBLIC_URL}/organizations/<slug>`."),
      credential_configuration_ids: z.array(z.string()).describe('`["OpenBadgeCredential"]`'),
      grants: z.object({
        "urn:ietf:params:oauth:grant-type:pre-authorized_code": z.object({
          "pre-authorized_code": z.string().describe("Random, usable once, valid 10 minutes; stored only as a hash."),
        }),
      }),
    })
    .describe("The OpenID4VCI credential offer, by value."),
  link: z
    .string()
    .describe(
      "`openid-credential-offer://?credential_offer=<the offer as URL-encoded JSON>`: open it in a wallet app or show it as a QR code.",
    ),
  expiresAt: z.string().describe("When the pre-authorized code stops working (date-time)."),
});
