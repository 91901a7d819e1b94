// GET {WALLET_URL}/credentials/<publicId>/qr.svg: the wallet link as a QR code (lib/wallet/qr.ts), shown
// on the recipient's wallet page. 404 where there is no public wallet page.
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { cacheControlUnlessHidden } from "@/lib/wallet/privacy";
import { walletQrSvg } from "@/lib/wallet/qr";

export const GET = publicEndpoint({ params: z.strictObject({ publicId: z.string().max(100) }) }, async ({ request, params }) => {
  const cacheControl = await cacheControlUnlessHidden(params.publicId, request, "public, max-age=86400");
  const svg = await walletQrSvg(params.publicId);
  if (!svg) throw new ApiError("not_found", "Credential not found.");
  // The link a code encodes never changes; a deleted credential's code may linger a day in caches.
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": cacheControl, "X-Content-Type-Options": "nosniff" },
  });
});

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
