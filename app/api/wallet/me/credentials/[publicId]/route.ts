// PATCH /api/wallet/me/credentials/{publicId} {"visibility":"public"|"private"}: who may open one of the
// signed-in recipient's credentials. Another recipient's or an unknown one: 404.
import { z } from "zod";
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { setWalletVisibility, VisibilityBody } from "@/lib/wallet/recipient-credentials";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const PATCH = walletEndpoint(
  { params: z.object({ publicId: z.uuid() }), body: VisibilityBody },
  async ({ session, params, body }) => ({ status: 200, body: await setWalletVisibility(session.email, params.publicId, body.visibility) }),
);

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, POST, PUT, DELETE } = otherMethodsRefused("PATCH");
