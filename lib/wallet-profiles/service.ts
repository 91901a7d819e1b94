// A recipient's public profile: opt-in, owned by the wallet session's (normalized) email, shown at
// {WALLET_URL}/profiles/<handle> only while public, and listing only what that recipient already shows
// to everyone: credentials that are issued or expired, not revoked, and public (visibility).
import { config } from "../config";
import { todayUtc } from "../core/dates";
import { ApiError, invalidField } from "../core/errors";
import { db } from "../db";
import { walletUrl } from "../attribute-values/credential-values";
import { readStatus } from "../credentials/serialize";
import { firstDesignPngs, type FirstDesignPng } from "../previews/credential-designs";
import { profileHandle, type UpdateWalletProfileInput, type WalletProfileView } from "./schema";

type ProfileRow = { handle: string | null; displayName: string | null; public: boolean };

export function profileUrl(handle: string): string {
  return `${config().walletUrl}/profiles/${handle}`;
}

function view(row: ProfileRow | null): WalletProfileView {
  if (!row) return { handle: null, displayName: null, public: false, url: null };
  return {
    handle: row.handle,
    displayName: row.displayName,
    public: row.public,
    url: row.public && row.handle ? profileUrl(row.handle) : null,
  };
}

const profileSelect = { handle: true, displayName: true, public: true } as const;

export async function walletProfile(email: string): Promise<WalletProfileView> {
  return view(await db().walletProfile.findUnique({ where: { emailNormalized: email }, select: profileSelect }));
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (e.code === "P2002" || e.code === "23505") return true;
  if (typeof e.message === "string" && /UNIQUE constraint failed|duplicate key value/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isUniqueViolation(e.cause);
}

const handleTaken = () => invalidField("handle", "is already taken; choose another");

/**
 * Sets what `input` names and keeps the rest. A profile cannot be public without a handle and a
 * display name. Neither can be cleared once set, so two concurrent updates of one profile cannot
 * leave it public without them; the unique index on `handle` decides between two recipients who
 * claim the same handle at once (the second gets the same error as a handle taken long ago).
 */
export async function updateWalletProfile(email: string, input: UpdateWalletProfileInput): Promise<WalletProfileView> {
  const current = await db().walletProfile.findUnique({ where: { emailNormalized: email }, select: profileSelect });
  const next: ProfileRow = {
    handle: input.handle ?? current?.handle ?? null,
    displayName: input.displayName ?? current?.displayName ?? null,
    public: input.public ?? current?.public ?? false,
  };
  if (next.public && (next.handle === null || next.displayName === null)) {
    const missing = [next.handle === null ? "handle" : null, next.displayName === null ? "displayName" : null].filter((f) => f !== null);
    throw new ApiError("validation_error", "A public profile needs a handle and a display name.", {
      details: missing.map((path) => ({ path, message: "is required for a public profile" })),
    });
  }
  const changes = {
    ...(input.handle !== undefined ? { handle: input.handle } : {}),
    ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
    ...(input.public !== undefined ? { public: input.public } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await db().walletProfile.upsert({
        where: { emailNormalized: email },
        create: { emailNormalized: email, ...next },
        update: changes,
        select: profileSelect,
      });
      return view(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Either the handle belongs to someone else, or this recipient's first two updates raced to
      // create the row (then the retry updates the row the other one made).
      if (input.handle !== undefined) {
        const holder = await db().walletProfile.findUnique({ where: { handle: input.handle }, select: { emailNormalized: true } });
        if (holder && holder.emailNormalized !== email) throw handleTaken();
      }
      if (attempt >= 1) throw error;
    }
  }
}

export type ProfileCredential = {
  publicId: string;
  title: string;
  issuer: { name: string; domain: string | null };
  status: "issued" | "expired";
  issueDate: string;
  expiryDate: string | null;
  /** The first design's PNG preview (as the wallet list shows it), or null when the group has none. */
  image: FirstDesignPng | null;
  url: string;
};

export type PublicProfile = { handle: string; displayName: string; credentials: ProfileCredential[] };

/** How many credentials a profile page lists (newest first). */
export const PROFILE_CREDENTIALS_SHOWN = 100;

/** The public profile behind a handle, or null when there is none to show (unknown, or not public). */
export async function publicProfile(handle: string): Promise<PublicProfile | null> {
  const folded = profileHandle.safeParse(handle);
  if (!folded.success) return null;
  const profile = await db().walletProfile.findUnique({
    where: { handle: folded.data },
    select: { emailNormalized: true, handle: true, displayName: true, public: true },
  });
  if (!profile || !profile.public || !profile.handle || !profile.displayName) return null;
  return { handle: profile.handle, displayName: profile.displayName, credentials: await publicCredentialsOf(profile.emailNormalized) };
}

async function publicCredentialsOf(email: string): Promise<ProfileCredential[]> {
  const rows = await db().credential.findMany({
    // Revoked credentials are left out: a profile shows what the recipient holds, and a revoked one no
    // longer vouches for anything (its own page still says so to whoever has the link).
    // A scheduled credential whose day has come is issued (lib/credentials/serialize.ts, readStatus).
    where: {
      OR: [{ status: "issued" }, { status: "scheduled", issueDate: { lte: todayUtc() } }],
      revokedAt: null,
      // The recipient's own choice per credential: a private one never appears here.
      visibility: "public",
      recipient: { emailNormalized: email },
    },
    orderBy: [{ issueDate: "desc" }, { createdAt: "desc" }, { id: "desc" }],
    take: PROFILE_CREDENTIALS_SHOWN,
    select: {
      id: true,
      publicId: true,
      groupId: true,
      status: true,
      recipientName: true,
      issueDate: true,
      expiryDate: true,
      customAttributes: true,
      revokedAt: true,
      group: { select: { name: true } },
      organization: { select: { id: true, name: true, domainClaim: { select: { verifiedDomain: true } } } },
    },
  });
  // One batched lookup for up to a hundred cards, the same pictures the recipient's own list shows.
  const images = await firstDesignPngs(rows);
  return rows.map((row) => {
    const status = readStatus(row) === "expired" ? "expired" : "issued";
    return {
      publicId: row.publicId,
      title: row.group.name,
      issuer: { name: row.organization.name, domain: row.organization.domainClaim?.verifiedDomain ?? null },
      status,
      issueDate: row.issueDate,
      expiryDate: row.expiryDate,
      image: images.get(row.id) ?? null,
      url: walletUrl(row.publicId),
    } satisfies ProfileCredential;
  });
}
