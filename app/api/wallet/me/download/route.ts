// GET {WALLET_URL}/api/wallet/me/download: every credential of the signed-in recipient that offers
// downloads (issued or expired, not revoked) in one zip, streamed as it is written (docs/api.md,
// Download all). A GET, so that a plain link on /wallet downloads it; the wallet wrapper still refuses
// another site's request (Origin, Sec-Fetch-Site) and answers 401 without a session. A session streams
// at most two zips at once and starts a few in a row (lib/wallet-download/stream-limits.ts): 429 past that.
import { Readable } from "node:stream";
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { attachmentDisposition } from "@/lib/previews/download-name";
import { ARCHIVE_FILE_NAME, credentialsArchive, downloadableCredentials } from "@/lib/wallet-download/archive";
import { releaseWhenDone, takeDownloadSlot } from "@/lib/wallet-download/stream-limits";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

// Listing the credentials first means a database failure is an ordinary error answer, not a broken
// download; from there on the archive streams.
export const GET = walletEndpoint({}, async ({ session }) => {
  const release = await takeDownloadSlot(session.id);
  try {
    const archive = credentialsArchive(await downloadableCredentials(session.email));
    releaseWhenDone(archive, release);
    return new Response(Readable.toWeb(archive) as ReadableStream<Uint8Array>, {
      status: 200,
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": attachmentDisposition(ARCHIVE_FILE_NAME),
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    release();
    throw error;
  }
});

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { POST, PUT, PATCH, DELETE } = otherMethodsRefused("GET");
