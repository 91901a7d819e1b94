// GET {WALLET_URL}/credentials/<publicId>/qr.png[?download=<file name>]: the wallet link as a QR code
// PNG (lib/wallet/qr.ts), the recipient's "Download QR code". 404 where there is no public wallet page.
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { attachmentDisposition, safeDownloadName } from "@/lib/previews/download-name";
import { cacheControlUnlessHidden } from "@/lib/wallet/privacy";
import { walletQrPng } from "@/lib/wallet/qr";

export const GET = publicEndpoint({ params: z.strictObject({ publicId: z.string().max(100) }) }, async ({ request, params }) => {
  const cacheControl = await cacheControlUnlessHidden(params.publicId, request, "public, max-age=86400");
  const png = await walletQrPng(params.publicId);
  if (!png) throw new ApiError("not_found", "Credential not found.");
  const download = new URL(request.url).searchParams.get("download");
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
      ...(download ? { "Content-Disposition": attachmentDisposition(safeDownloadName(download, "png")) } : {}),
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
