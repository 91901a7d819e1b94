// A signed-in recipient's own credentials: every issued, expired or revoked credential on this instance
// addressed to the session's email (case-insensitive: Recipient.emailNormalized), in every organization,
// newest first; and the recipient's choice of who may open each one (visibility). Drafts, scheduled
// credentials whose day has not come and deleted ones never appear. Another recipient's credential
// and an unknown one are the same 404, so nobody learns what exists.
import { z } from "zod";
import { notFound } from "../core/errors";
import { todayUtc } from "../core/dates";
import { newestFirstPage, paginationQuery, type Page } from "../core/pagination";
import { singleLineText } from "../core/text";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { firstDesignPngUrls } from "../previews/credential-designs";
import { shownInWallet } from "./sign-in-link";

export const WALLET_STATUSES = ["issued", "expired", "revoked"] as const;
export type WalletStatusFilter = (typeof WALLET_STATUSES)[number];
export const VISIBILITIES = ["public", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const WalletCredentialsQuery = z.strictObject({
  ...paginationQuery,
  /** An organization's slug or id. */
  issuer: singleLineText().min(1, "must not be empty").max(200).optional(),
  /** `revoked`: revoked ones; `issued` and `expired`: the ones of that status that are not revoked. */
  status: z.enum(WALLET_STATUSES, { error: "must be one of issued, expired, revoked" }).optional(),
});
export type WalletCredentialsQuery = z.output<typeof WalletCredentialsQuery>;

export const VisibilityBody = z.strictObject({ visibility: z.enum(VISIBILITIES, { error: "must be public or private" }) });

export type WalletListItem = {
  publicId: string;
  title: string;
  issuer: { name: string; domain: string | null };
  /** As the /v1 API reads it (`issued` or `expired`); a revoked credential has `revokedAt` set. */
  status: "issued" | "expired";
  revokedAt: string | null;
  revocationReason: string | null;
  issueDate: string;
  expiryDate: string | null;
  imageUrl: string | null;
  visibility: Visibility;
};

/** The issuer filter's choices on the page: every organization that addressed a shown credential to the email. */
export type WalletIssuer = { slug: string; name: string };

const itemSelect = {
  id: true,
  publicId: true,
  groupId: true,
  status: true,
  recipientName: true,
  issueDate: true,
  expiryDate: true,
  customAttributes: true,
  revokedAt: true,
  revocationReason: true,
  visibility: true,
  createdAt: true,
  group: { select: { name: true } },
  organization: { select: { name: true, domainClaim: { select: { verifiedDomain: true } } } },
} as const;

type ItemRow = {
  publicId: string;
  status: string;
  issueDate: string;
  expiryDate: string | null;
  revokedAt: Date | null;
  revocationReason: string | null;
  visibility: string;
  group: { name: string };
  organization: { name: string; domainClaim: { verifiedDomain: string | null } | null };
};

/** The one shape of a wallet list item, from its row. */
function toItem(row: ItemRow, imageUrl: string | null, today: string): WalletListItem {
  return {
    publicId: row.publicId,
    title: row.group.name,
    issuer: { name: row.organization.name, domain: row.organization.domainClaim?.verifiedDomain ?? null },
    // Only shown credentials are read: issued (or scheduled and due, which reads as issued) or expired.
    status: readStatus(row, today) as "issued" | "expired",
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revocationReason: row.revocationReason,
    issueDate: row.issueDate,
    expiryDate: row.expiryDate,
    imageUrl,
    visibility: row.visibility === "private" ? "private" : "public",
  };
}

/** The recipients (one per organization at most) an email stands for, optionally of one organization. */
async function recipientIdsOf(email: string, issuer?: string): Promise<string[]> {
  const rows = await db().recipient.findMany({
    where: { emailNormalized: email, ...(issuer ? { organization: { OR: [{ slug: issuer }, { id: issuer }] } } : {}) },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** The condition on status for a filter, on top of the wallet's own (shown credentials only). */
function statusCondition(status: WalletStatusFilter | undefined, today: string) {
  const expired = { expiryDate: { lt: today } };
  const current = { OR: [{ expiryDate: null }, { expiryDate: { gte: today } }] };
  switch (status) {
    case undefined:
      return {};
    case "revoked":
      return { revokedAt: { not: null } };
    case "expired":
      return { revokedAt: null, ...expired };
    case "issued":
      return { revokedAt: null, ...current };
  }
}

/** One page of the recipient's credentials, newest first (cursor pagination like the /v1 lists). */
export async function listWalletCredentials(email: string, query: WalletCredentialsQuery): Promise<Page<WalletListItem>> {
  const today = todayUtc();
  const recipientIds = await recipientIdsOf(email, query.issuer);
  if (recipientIds.length === 0) return { data: [], pagination: { prev: null, next: null } };
  const page = await newestFirstPage({
    scope: "wallet.credentials",
    cursor: query.cursor,
    limit: query.limit,
    fetch: ({ where, orderBy, take }) =>
      db().credential.findMany({
        where: { AND: [{ recipientId: { in: recipientIds } }, shownInWallet(today), statusCondition(query.status, today), where ?? {}] },
        orderBy,
        take,
        select: itemSelect,
      }),
    serialize: (row) => row,
  });
  const images = await firstDesignPngUrls(page.data);
  return { data: page.data.map((row) => toItem(row, images.get(row.id) ?? null, today)), pagination: page.pagination };
}

/** The organizations that addressed a shown credential to this email, by name: the page's issuer filter. */
export async function walletIssuers(email: string): Promise<WalletIssuer[]> {
  const rows = await db().recipient.findMany({
    where: { emailNormalized: email, credentials: { some: shownInWallet() } },
    select: { organization: { select: { slug: true, name: true } } },
  });
  return rows.map((r) => r.organization).sort((a, b) => a.name.localeCompare(b.name));
}

/** The credential behind `publicId` if it is one of this email's shown credentials, else null. */
async function ownCredential(email: string, publicId: string): Promise<{ id: string; updatedAt: Date } | null> {
  if (!z.uuid().safeParse(publicId).success) return null;
  return db().credential.findFirst({
    where: { publicId, recipient: { emailNormalized: email }, ...shownInWallet() },
    select: { id: true, updatedAt: true },
  });
}

/** Sets who may open one of the recipient's credentials; 404 for anyone else's or an unknown one. */
export async function setWalletVisibility(email: string, publicId: string, visibility: Visibility): Promise<WalletListItem> {
  const own = await ownCredential(email, publicId);
  if (!own) throw notFound("Credential");
  // The recipient's choice, not an edit of the credential: the issuer's updatedAt (a sort and search
  // field, announced by credential.updated) stays as it was.
  await db().credential.update({ where: { id: own.id }, data: { visibility, updatedAt: own.updatedAt } });
  const row = await db().credential.findUniqueOrThrow({ where: { id: own.id }, select: itemSelect });
  return toItem(row, (await firstDesignPngUrls([row])).get(row.id) ?? null, todayUtc());
}

/** Whether the signed-in email is the recipient of this credential (any status): the recipient's view and private access. */
export async function isRecipientOf(email: string | null | undefined, credentialId: string): Promise<boolean> {
  if (!email) return false;
  const row = await db().credential.findFirst({ where: { id: credentialId, recipient: { emailNormalized: email } }, select: { id: true } });
  return row !== null;
}
