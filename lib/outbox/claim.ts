// Claiming due outbox rows with a lease, the same way for every outbox table (EmailOutbox,
// WebhookDelivery, CredentialExpiryNotice). A table qualifies by its columns: "status" ('queued' while work is left),
// "nextAttemptAt", "leaseUntil", "leaseOwner" and "attempts".
import { randomUUID } from "node:crypto";
import { db, type SqlClient } from "../db";
import { Prisma } from "../generated/sqlite/client";

/** The condition a row must meet to be claimed at `now`: queued, due, and not leased by a live claim. */
export function dueAndUnleased(now: Date, alias = ""): Prisma.Sql {
  const c = (column: string) => Prisma.raw(alias ? `${alias}."${column}"` : `"${column}"`);
  return Prisma.sql`${c("status")} = 'queued' AND ${c("nextAttemptAt")} <= ${now} AND (${c("leaseUntil")} IS NULL OR ${c("leaseUntil")} < ${now})`;
}

/**
 * Leases the rows `candidates` selects (a query returning an "id" column, built with
 * `dueAndUnleased`, ordered and limited by the caller) for `leaseMs`, counting the attempt, in one
 * statement. The lease condition is repeated outside the subquery so that, on PostgreSQL, a row another
 * worker claimed meanwhile is re-checked and skipped. Returns the claim's owner (to read the rows back
 * by) and how many rows it took. `client`: a transaction to claim in (default: the Prisma client).
 */
export async function claimLeasedRows(
  table: "EmailOutbox" | "WebhookDelivery" | "CredentialExpiryNotice",
  candidates: Prisma.Sql,
  now: Date,
  leaseMs: number,
  client: SqlClient = db(),
): Promise<{ owner: string; claimed: number }> {
  const owner = randomUUID();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const name = Prisma.raw(`"${table}"`);
  const claimed = await client.$executeRaw(Prisma.sql`
    UPDATE ${name} SET "leaseUntil" = ${leaseUntil}, "leaseOwner" = ${owner}, "attempts" = "attempts" + 1
    WHERE "id" IN (${candidates}) AND ${dueAndUnleased(now)}`);
  return { owner, claimed };
}

/** List lengths `idList` rounds up to, so that a statement with an id list has a few texts, not one per length. */
const LIST_SIZES = [1, 4, 16, 64, 256];

/**
 * `"id" IN (…)`-ready list of ids, padded (by repeating the last id, which changes nothing in an IN
 * list) to one of a few lengths: prepared statements are kept per text (lib/db/drivers.ts), and a text
 * per list length would push the hot statements out. Longer lists than the largest size are left as
 * they are. `ids` must not be empty.
 */
export function idList(ids: readonly string[]): Prisma.Sql {
  if (ids.length === 0) throw new Error("idList: no ids");
  const size = LIST_SIZES.find((n) => n >= ids.length) ?? ids.length;
  const padded = [...ids, ...Array<string>(size - ids.length).fill(ids[ids.length - 1]!)];
  return Prisma.join(padded);
}
