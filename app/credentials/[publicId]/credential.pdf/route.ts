// GET {WALLET_URL}/credentials/<publicId>/credential.pdf?design=<designId>[&download=<file name>]: the
// wallet's PDF download, the design's PDF with the signed credential embedded as the associated file
// `credential.json` (lib/verification/pdf-embedding.ts; why it is composed here rather than in the
// preview: credentialPdfWithDocument). 404 wherever the wallet offers no download, like badge.png, and
// to anyone but its signed-in recipient for a private credential.
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { attachmentDisposition, safeDownloadName } from "@/lib/previews/download-name";
import { credentialPdfWithDocument } from "@/lib/verification/baked-download";
import { cacheControlUnlessHidden } from "@/lib/wallet/privacy";

// As badge.png: the bytes change when the credential is re-signed or revoked, so caches keep it briefly.
const CACHE_CONTROL = "public, max-age=60";

export const GET = publicEndpoint({ params: z.strictObject({ publicId: z.string().max(100) }) }, async ({ request, params }) => {
  const query = new URL(request.url).searchParams;
  const design = query.get("design");
  if (!design || design.length > 100) throw new ApiError("not_found", "Not found: the query names no design (?design=<design id>).");
  // A private credential's PDF (its signed document inside) answers its signed-in recipient only.
  const cacheControl = await cacheControlUnlessHidden(params.publicId, request, CACHE_CONTROL);
  const pdf = await credentialPdfWithDocument(params.publicId, design);
  if (!pdf) throw new ApiError("not_found", "Credential PDF not found.");
  const download = query.get("download");
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
      ...(download ? { "Content-Disposition": attachmentDisposition(safeDownloadName(download, "pdf")) } : {}),
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
