// Where each credential sits in its organization's status lists. An entry is handed out the first
// time the credential's verifiable credential is built, not when it is issued: the issue transaction
// (the hot path, bench:issue) stays as it was, drafts and scheduled credentials never use an entry,
// and since a list's bits are read from revokedAt when it is served, a credential revoked before
// anyone asked for its document still reads as revoked once it has an entry.
//
// Indexes are drawn at random, not handed out in order: Bitstring Status List v1.0 asks issuers to,
// so that an index tells a verifier nothing about when (or after whom) a credential was issued, and
// neighbouring bits do not belong to the same batch of people.
import { randomInt } from "node:crypto";
import { db, type Tx } from "../db";
import { newId } from "../db/ids";
import { STATUS_LIST_LENGTH } from "./status-list";

export type StatusEntry = { listNumber: number; index: number };

/**
 * Whose entry it is: a Credential row's (the default), or a credential signed through the VC API
 * (an ApiIssuedCredential row). `withClaim` runs in the claim's own transaction, before it: whatever it
 * writes (the VC API's quota count and record) commits with the entry or not at all.
 */
export type EntryOptions = { owner?: "credential" | "apiIssued"; withClaim?: (tx: Tx) => Promise<void> };

type OwnerColumn = "credentialId" | "apiIssuedCredentialId";

const ownerColumn = (options: EntryOptions): OwnerColumn => (options.owner === "apiIssued" ? "apiIssuedCredentialId" : "credentialId");

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "P2002" || (typeof e?.message === "string" && /UNIQUE constraint failed|duplicate key value/i.test(e.message));
}

async function existingEntry(column: OwnerColumn, ownerId: string): Promise<StatusEntry | null> {
  const entry = await db().statusListEntry.findUnique({
    where: column === "credentialId" ? { credentialId: ownerId } : { apiIssuedCredentialId: ownerId },
    select: { index: true, statusList: { select: { number: true } } },
  });
  return entry ? { listNumber: entry.statusList.number, index: entry.index } : null;
}

/** Opens list number `number` for the organization; someone else opening it first is as good. */
async function openList(organizationId: string, number: number): Promise<void> {
  try {
    await db().statusList.create({ data: { id: newId("stl"), organizationId, number, length: STATUS_LIST_LENGTH } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

type Claim = StatusEntry | "full" | "retry";

/**
 * A list takes entries until seven eighths of its indexes are used: random draws then still find a
 * free index among a handful of candidates, and the list stays large enough for herd privacy.
 */
export const usableEntries = (length: number) => length - Math.floor(length / 8);

/** How many random indexes one claim considers; at most 7/8 taken, all of them are taken with p < 2e-4. */
const CANDIDATES = 64;

/** Distinct random indexes of a list; a short list is tried whole, in random order. */
function candidateIndexes(length: number): number[] {
  if (length <= CANDIDATES * 4) {
    const all = Array.from({ length }, (_, i) => i);
    for (let i = all.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    return all;
  }
  const picked = new Set<number>();
  while (picked.size < CANDIDATES) picked.add(randomInt(length));
  return [...picked];
}

/**
 * Counts the entry against the list's capacity and gives the credential a random free index, in one
 * transaction. The count is a conditional increment (`nextIndex < usable entries`), so a list never
 * takes more than it may on either engine; two claims drawing the same free index collide on the
 * (list, index) key, and so does a credential given an entry by a concurrent request (unique
 * credentialId): either way the transaction rolls back whole and the caller's next round tries again.
 */
async function claimIndex(list: { id: string; number: number; length: number }, ownerId: string, options: EntryOptions): Promise<Claim> {
  return db()
    .$transaction(async (tx) => {
      await options.withClaim?.(tx);
      const counted = await tx.$executeRaw`
      UPDATE "StatusList" SET "nextIndex" = "nextIndex" + 1
      WHERE "id" = ${list.id} AND "nextIndex" < "length" - "length" / 8`;
      // Thrown, not returned: what the caller wrote in `withClaim` (a quota count, a record) must roll
      // back with it, or the next round would write it a second time.
      if (counted === 0) throw new ListFull();
      const candidates = candidateIndexes(list.length);
      const taken = await tx.statusListEntry.findMany({
        where: { statusListId: list.id, index: { in: candidates } },
        select: { index: true },
      });
      const used = new Set(taken.map((t) => t.index));
      const index = candidates.find((i) => !used.has(i));
      if (index === undefined) throw new NoFreeCandidate(); // rolls the count back; the next round draws again
      await tx.statusListEntry.create({ data: { statusListId: list.id, index, [ownerColumn(options)]: ownerId } });
      return { listNumber: list.number, index };
    })
    .catch((error: unknown) => {
      if (error instanceof NoFreeCandidate) return "retry" as const;
      if (error instanceof ListFull) return "full" as const;
      throw error;
    });
}

class NoFreeCandidate extends Error {}
class ListFull extends Error {}

// Each round either ends, sees another request make progress (an entry for this credential, a list
// filled or opened) or drew only taken indexes (p < 2e-4 on a list at capacity), so a handful of
// rounds is plenty even under heavy contention.
const MAX_ROUNDS = 20;

/** The credential's (list, index), handed out now if it has none. Never the same pair for two credentials. */
export async function statusEntryFor(credential: { id: string; organizationId: string }, options: EntryOptions = {}): Promise<StatusEntry> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const existing = await existingEntry(ownerColumn(options), credential.id);
    if (existing) return existing;
    const list = await db().statusList.findFirst({
      where: { organizationId: credential.organizationId },
      orderBy: { number: "desc" },
      select: { id: true, number: true, length: true },
    });
    if (!list) {
      await openList(credential.organizationId, 1);
      continue;
    }
    try {
      const claim = await claimIndex(list, credential.id, options);
      if (claim === "retry") continue;
      if (claim !== "full") return claim;
      await openList(credential.organizationId, list.number + 1);
    } catch (error) {
      // A concurrent request gave this credential its entry: the next round reads it.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("Could not allocate a status list entry: too much contention");
}
