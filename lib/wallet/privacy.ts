// Who may open a private credential (the recipient's choice in their wallet): its signed-in recipient
// only. Everyone else gets the 404 an unknown credential gets, on the wallet page, credential.json, the
// badge and QR images and the previews. Documents already handed out keep verifying: the status list
// and the signed document are untouched.
import { ApiError } from "../core/errors";
import { db } from "../db";
import { walletSessionForToken, walletTokenFromHeaders } from "./session";

/** `public`: anyone may see it; `recipient`: private, and this is its signed-in recipient; `hidden`: private, anyone else. */
export type CredentialAccess = "public" | "recipient" | "hidden";

async function accessFor(row: { visibility: string; recipient: { emailNormalized: string } | null } | null, walletToken: string | null) {
  if (!row || row.visibility !== "private") return "public" as const;
  const session = await walletSessionForToken(walletToken);
  return session && row.recipient && session.email === row.recipient.emailNormalized ? ("recipient" as const) : ("hidden" as const);
}

const accessSelect = { visibility: true, recipient: { select: { emailNormalized: true } } } as const;

/**
 * The access of a request's wallet token (lib/wallet/session.ts reads it from the cookie) to the
 * credential behind a wallet link (`public` for an unknown one: its route says 404 itself).
 */
export async function credentialAccessByPublicId(publicId: string, walletToken: string | null): Promise<CredentialAccess> {
  if (publicId.length > 100) return "public";
  return accessFor(await db().credential.findUnique({ where: { publicId }, select: accessSelect }), walletToken);
}

/**
 * The same for a preview: a credential's previews follow its visibility; design samples are public.
 * Plain SQL, one indexed statement: it runs before every preview file is served.
 */
export async function previewAccess(digest: string, walletToken: string | null): Promise<CredentialAccess> {
  const [row] = await db().$queryRaw<{ visibility: string; emailNormalized: string | null }[]>`
    SELECT c."visibility", r."emailNormalized" FROM "PreviewVersion" pv
    JOIN "Credential" c ON c."id" = pv."credentialId"
    LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    WHERE pv."digest" = ${digest}`;
  if (!row) return "public";
  return accessFor(
    { visibility: row.visibility, recipient: row.emailNormalized === null ? null : { emailNormalized: row.emailNormalized } },
    walletToken,
  );
}

/**
 * For the routes under a wallet link (credential.json, badge and QR images): 404 for a private
 * credential unless its signed-in recipient asks, and the Cache-Control to answer with (`publicCache`,
 * or for the recipient's own private copy never a shared cache's).
 */
export async function cacheControlUnlessHidden(publicId: string, request: Request, publicCache: string): Promise<string> {
  const access = await credentialAccessByPublicId(publicId, walletTokenFromHeaders(request.headers));
  if (access === "hidden") throw new ApiError("not_found", "Credential not found.");
  return access === "recipient" ? "private, no-store" : publicCache;
}
