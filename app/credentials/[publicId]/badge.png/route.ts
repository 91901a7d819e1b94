// GET {WALLET_URL}/credentials/<publicId>/badge.png?design=<designId>[&download=<file name>]: the
// wallet's PNG download, the design's image with the signed credential baked in (an iTXt chunk with
// the keyword `openbadgecredential`, Open Badges 3.0 baking). 404 wherever the wallet offers no
// download: unknown, draft, scheduled, deleted or revoked credentials, designs not in its group.
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { attachmentDisposition, safeDownloadName } from "@/lib/previews/download-name";
import { bakedCredentialPng } from "@/lib/verification/baked-download";
import { cacheControlUnlessHidden } from "@/lib/wallet/privacy";

// Public and unauthenticated like the wallet page; the bytes change when the credential is renamed
// (a newly signed document) or revoked (no download at all), so caches keep it briefly.
const CACHE_CONTROL = "public, max-age=60";

export const GET = publicEndpoint({ params: z.strictObject({ publicId: z.string().max(100) }) }, async ({ request, params }) => {
  const query = new URL(request.url).searchParams;
  const design = query.get("design");
  if (!design || design.length > 100) throw new ApiError("not_found", "Not found: the query names no design (?design=<design id>).");
  const cacheControl = await cacheControlUnlessHidden(params.publicId, request, CACHE_CONTROL);
  const png = await bakedCredentialPng(params.publicId, design);
  if (!png) throw new ApiError("not_found", "Credential image not found.");
  const download = query.get("download");
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
