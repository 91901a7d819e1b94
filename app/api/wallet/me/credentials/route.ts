// GET /api/wallet/me/credentials?cursor&limit&issuer&status: the signed-in recipient's credentials,
// newest first, across organizations ({data, pagination}).
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { listWalletCredentials, WalletCredentialsQuery } from "@/lib/wallet/recipient-credentials";

export const GET = walletEndpoint({ query: WalletCredentialsQuery }, async ({ session, query }) => ({
  status: 200,
  body: await listWalletCredentials(session.email, query),
}));
