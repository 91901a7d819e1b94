// POST /api/wallet/verify {publicId, triggeredBy}: re-checks the credential now and records the check
// (a private credential: for its signed-in recipient only).
import { publicJsonEndpoint, otherMethodsRefused } from "@/lib/api/public-endpoint";
import { verifyCredential, VerifyBody } from "@/lib/wallet/verify";
import { walletTokenFromHeaders } from "@/lib/wallet/session";

export const POST = publicJsonEndpoint(VerifyBody, async (body, request) => ({
  status: 200,
  body: await verifyCredential(body, walletTokenFromHeaders(request.headers)),
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
