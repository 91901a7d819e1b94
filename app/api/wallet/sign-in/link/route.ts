// POST /api/wallet/sign-in/link (form field `token`): the "Sign in" button of the emailed link's page.
// Uses the link up, starts the wallet session, sets its cookie and opens /wallet (303); a used, expired
// or unknown link goes back to the link's page, which says so and offers a new one. A plain form post,
// so it works without JavaScript; refused from other sites like every wallet route (nobody can sign a
// visitor in to a wallet of theirs).
import { ApiError } from "@/lib/core/errors";
import { readBody } from "@/lib/api/endpoint";
import { publicEndpoint, otherMethodsRefused } from "@/lib/api/public-endpoint";
import { refuseCrossSite } from "@/lib/api/wallet-endpoint";
import { signInWithWalletLink } from "@/lib/wallet/sign-in-link";
import { requestIsHttps, walletSessionSetCookie } from "@/lib/wallet/session";

export const POST = publicEndpoint({ rateLimit: { name: "wallet-link", perSecond: 1, burst: 20 } }, async ({ request }) => {
  refuseCrossSite(request);
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    throw new ApiError("validation_error", "Send the form field token as application/x-www-form-urlencoded.", {
      details: [{ path: "token", message: "is required" }],
    });
  }
  const token = new URLSearchParams(await readBody(request, 4096)).get("token") ?? "";
  const signedIn = await signInWithWalletLink(token);
  if (!signedIn)
    return new Response(null, { status: 303, headers: { Location: "/wallet/sign-in?invalid=1", "Cache-Control": "no-store" } });
  const headers = new Headers({ Location: "/wallet", "Cache-Control": "no-store" });
  headers.append("Set-Cookie", walletSessionSetCookie(signedIn.token, requestIsHttps(request.headers)));
  return new Response(null, { status: 303, headers });
});

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
