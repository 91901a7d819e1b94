// GET and PATCH {WALLET_URL}/api/wallet/me/profile: the signed-in recipient's public profile
// ({handle, displayName, public, url}); see docs/api.md, Public profiles. A PATCH sets the fields it
// names and keeps the others; a profile cannot be public without a handle and a display name.
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { UpdateWalletProfileBody } from "@/lib/wallet-profiles/schema";
import { updateWalletProfile, walletProfile } from "@/lib/wallet-profiles/service";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const GET = walletEndpoint({}, async ({ session }) => ({ status: 200, body: await walletProfile(session.email) }));

export const PATCH = walletEndpoint({ body: UpdateWalletProfileBody }, async ({ session, body }) => ({
  status: 200,
  body: await updateWalletProfile(session.email, body),
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { POST, PUT, DELETE } = otherMethodsRefused("GET", "PATCH");
