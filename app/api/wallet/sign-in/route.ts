// POST /api/wallet/sign-in {"email"}: asks for a one-time sign-in link to the recipient's wallet.
// 202 with the same body whatever the address (nobody learns who has credentials here); the email goes
// out only when credentials on this instance are addressed to it. Limited per client address and per email.
import { z } from "zod";
import { walletPublicEndpoint } from "@/lib/api/wallet-endpoint";
import { recipientEmail } from "@/lib/credentials/schema";
import { askForWalletSignInLink } from "@/lib/wallet/sign-in-link";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

const WalletSignInBody = z.strictObject({ email: recipientEmail });

export const POST = walletPublicEndpoint(
  { body: WalletSignInBody, rateLimit: { name: "wallet-signin", perSecond: 1 / 30, burst: 10 } },
  async ({ body, request }) => {
    await askForWalletSignInLink({ email: body.email, acceptLanguage: request.headers.get("accept-language") });
    return {
      status: 202,
      body: {
        message: "If credentials on this site were sent to this email, a sign-in link is on its way. It works once, for 15 minutes.",
      },
    };
  },
);

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
