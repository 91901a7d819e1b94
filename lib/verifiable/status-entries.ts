// Where each credential sits in its organization's status lists. An entry is handed out the first
// time the credential's verifiable credential is built, not when it is issued: the issue transaction
// (the hot path, bench:issue) stays as it was, drafts and scheduled credentials never use an entry,
// and since a list's bits are read from revokedAt when it is served, a credential revoked before
// anyone asked for its document still reads as revoked once it has an entry.
import { db } from "../db";
import { newId } from "../db/ids";
import { STATUS_LIST_LENGTH } from "./status-list";

export type StatusEntry = { listNumber: number; index: number };

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "P2002" || (typeof e?.message === "string" && /UNIQUE constraint failed|duplicate key value/i.test(e.message));
}

async function existingEntry(credentialId: string): Promise<StatusEntry | null> {
  const entry = await db().statusListEntry.findUnique({ where: { credentialId }, select: { index: true, statusList: { select: { number: true } } } });
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

type Claim = StatusEntry | "full";

/**
 * Takes the list's next index and gives it to the credential, in one transaction. The increment is
 * conditional (`nextIndex < length`), so concurrent claims each get their own index on both engines
 * (PostgreSQL's row lock orders them; SQLite has one writer); if the credential got an entry from a
 * concurrent request meanwhile, the unique credentialId refuses ours and the increment rolls back with it.
 */
async function claimIndex(list: { id: string; number: number }, credentialId: string): Promise<Claim> {
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ nextIndex: number | bigint }[]>`
      UPDATE "StatusList" SET "nextIndex" = "nextIndex" + 1
      WHERE "id" = ${list.id} AND "nextIndex" < "length"
      RETURNING "nextIndex"`;
    const taken = rows[0];
    if (!taken) return "full" as const;
    const index = Number(taken.nextIndex) - 1;
    await tx.statusListEntry.create({ data: { statusListId: list.id, index, credentialId } });
    return { listNumber: list.number, index };
  });
}

// Each round either ends or sees another request make progress (an entry for this credential, or a
// list filled or opened), so a handful of rounds is plenty even under heavy contention.
const MAX_ROUNDS = 20;

/** The credential's (list, index), handed out now if it has none. Never the same pair for two credentials. */
export async function statusEntryFor(credential: { id: string; organizationId: string }): Promise<StatusEntry> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const existing = await existingEntry(credential.id);
    if (existing) return existing;
    const list = await db().statusList.findFirst({ where: { organizationId: credential.organizationId }, orderBy: { number: "desc" }, select: { id: true, number: true } });
    if (!list) {
      await openList(credential.organizationId, 1);
      continue;
    }
    try {
      const claim = await claimIndex(list, credential.id);
      if (claim !== "full") return claim;
      await openList(credential.organizationId, list.number + 1);
    } catch (error) {
      // A concurrent request gave this credential its entry: the next round reads it.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("Could not allocate a status list entry: too much contention");
}
