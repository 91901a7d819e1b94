// A bounce: the receiving server refused the recipient or the message for good (a 5xx answer to RCPT TO
// or DATA). The worker gives such an email up at once, and its last error reads as describeFailure in
// worker.ts writes it, e.g. `EENVELOPE SMTP 550 during RCPT TO`. Every other `failed` email failed for
// another reason (no answer, retries used up). Analytics name the two apart.
import { Prisma } from "../generated/sqlite/client";

const BOUNCE_ERROR_PATTERNS = ["% SMTP 5__ during RCPT TO", "% SMTP 5__ during DATA"];

/** True for an outbox row's last error that is a bounce (SQL, for an `EmailOutbox` aliased `alias`). */
export function bouncedCondition(alias: string): Prisma.Sql {
  const column = Prisma.raw(`${alias}."lastError"`);
  return Prisma.sql`(${Prisma.join(
    BOUNCE_ERROR_PATTERNS.map((p) => Prisma.sql`${column} LIKE ${p}`),
    " OR ",
  )})`;
}

/** The same rule for a value in hand: the last error of a `failed` email is a bounce. */
export function isBounceError(lastError: string | null): boolean {
  return lastError !== null && /^\S+ SMTP 5\d\d during (RCPT TO|DATA)$/.test(lastError);
}
