// POST /api/wallet/events {publicId, eventType, triggeredBy}: the wallet page records its own events.
import { publicJsonEndpoint } from "@/lib/api/public-endpoint";
import { recordWalletEvent, WalletEventBody } from "@/lib/wallet/events";

export const POST = publicJsonEndpoint(WalletEventBody, async (body) => ({ status: 201, body: await recordWalletEvent(body) }));
