// POST /api/wallet/sign-out: ends the wallet session on the server at once (its cookie then gets 401)
// and removes the cookie. 204; a form posted by the wallet page without JavaScript is sent back to /wallet.
import { walletPublicEndpoint } from "@/lib/api/wallet-endpoint";
import { endWalletSession, walletSessionClearCookies } from "@/lib/wallet/session";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const POST = walletPublicEndpoint(
  { rateLimit: { name: "wallet-signout", perSecond: 1, burst: 20 } },
  async ({ request, session }) => {
    if (session) await endWalletSession(session.id);
    const fromForm = (request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
    const response = fromForm ? new Response(null, { status: 303, headers: { Location: "/wallet" } }) : new Response(null, { status: 204 });
    for (const cookie of walletSessionClearCookies()) response.headers.append("Set-Cookie", cookie);
    return response;
  },
);

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
