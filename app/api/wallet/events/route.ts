// POST /api/wallet/events {publicId, eventType, triggeredBy}: the wallet page records its own events.
import { publicJsonEndpoint, otherMethodsRefused } from "@/lib/api/public-endpoint";
import { recordWalletEvent, WalletEventBody } from "@/lib/wallet/events";
import { walletTokenFromHeaders } from "@/lib/wallet/session";

export const POST = publicJsonEndpoint(WalletEventBody, async (body, request) => ({
  status: 201,
  body: await recordWalletEvent(body, walletTokenFromHeaders(request.headers)),
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
