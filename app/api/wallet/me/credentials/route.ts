// GET /api/wallet/me/credentials?cursor&limit&issuer&status: the signed-in recipient's credentials,
// newest first, across organizations ({data, pagination}).
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { listWalletCredentials, WalletCredentialsQuery } from "@/lib/wallet/recipient-credentials";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const GET = walletEndpoint({ query: WalletCredentialsQuery }, async ({ session, query }) => ({
  status: 200,
  body: await listWalletCredentials(session.email, query),
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { POST, PUT, PATCH, DELETE } = otherMethodsRefused("GET");
