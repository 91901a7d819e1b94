// How fast anyone may try passwords, built so that guessing is slow but nobody can lock the owner out.
// A limit keyed by email alone (what this replaced) let anyone stop a person signing in by typing
// wrong passwords for their email. The rule (also in the README, "Signing in"):
//   - per client address, over all emails: 10 attempts at once, then one every 6 s (spraying many
//     accounts from one place);
//   - per (client address, email) pair: 5 at once, then one every 12 s (guessing one account from one
//     place). Guesses from other addresses use other pairs, so they never block the owner's;
//   - per email, wrong passwords from all addresses together: 100 at once, then one every 36 s. While
//     that count is used up the account is under a spread-out attack, and an attempt for it gets in
//     only when the count has refilled (one every 36 s, shared by all the attacker's addresses) or as
//     its address's one try per 15 minutes. That last rule lets the owner in from their own address
//     on the first try; and a refusal is never the only way in (a password reset by email works, and
//     clears all of this);
//   - a password reset or change forgets what was counted for that email.
// Kept where lib/auth/shared-rate-limit.ts keeps limits: in the database on PostgreSQL, so every process
// counts the same attempts (N web processes do not allow N times as many guesses); in memory on SQLite.
import type { Buckets } from "../rate-limit/token-buckets";
import { MemoryBuckets } from "../rate-limit/token-buckets";
import { addressSubject, exactBuckets, rateLimitSubject, type LimitRule } from "../rate-limit/shared-rate-limit";

export type SignInVerdict = { allowed: true } | { allowed: false; limitedBy: "address" | "account" };

const RULES = {
  byAddress: { name: "signin.address", perSecond: 1 / 6, burst: 10 },
  byPair: { name: "signin.pair", perSecond: 1 / 12, burst: 5 },
  failuresByEmail: { name: "signin.failures", perSecond: 1 / 36, burst: 100 },
  guardedPair: { name: "signin.guarded", perSecond: 1 / 900, burst: 1 },
} satisfies Record<string, LimitRule>;

type Limits = Record<keyof typeof RULES, Buckets>;

// Keys are keyed hashes of the email and the address (rateLimitSubject): the limit buckets hold no
// personal data. A pair's key starts with its email's part, so forgetEmail can drop them by prefix.
const emailKey = (email: string) => rateLimitSubject(`email:${email}`);
const addressKey = addressSubject;
const pairKey = (email: string, address: string) => `${emailKey(email)}.${addressKey(address)}`;
const pairPrefix = (email: string) => `${emailKey(email)}.`;

export class SignInThrottle {
  /** In memory unless given the buckets (signInThrottle() gives the process's shared ones). */
  constructor(
    readonly limits: Limits = {
      byAddress: new MemoryBuckets(RULES.byAddress.perSecond, RULES.byAddress.burst),
      byPair: new MemoryBuckets(RULES.byPair.perSecond, RULES.byPair.burst),
      failuresByEmail: new MemoryBuckets(RULES.failuresByEmail.perSecond, RULES.failuresByEmail.burst),
      guardedPair: new MemoryBuckets(RULES.guardedPair.perSecond, RULES.guardedPair.burst),
    },
  ) {}

  /** Takes one attempt for `email` from `address`; false means refuse it before checking the password. */
  async admit(address: string, email: string, now = Date.now()): Promise<SignInVerdict> {
    if (!(await this.limits.byAddress.take(addressKey(address), now)).allowed) return { allowed: false, limitedBy: "address" };
    const key = pairKey(email, address);
    if (!(await this.limits.byPair.take(key, now)).allowed) return { allowed: false, limitedBy: "account" };
    if ((await this.isUnderAttack(email, now)) && !(await this.limits.guardedPair.take(key, now)).allowed) return { allowed: false, limitedBy: "account" };
    return { allowed: true };
  }

  /** A wrong password for `email` (from anywhere): counts towards the spread-out-attack threshold. */
  async recordFailure(email: string, now = Date.now()): Promise<void> {
    await this.limits.failuresByEmail.take(emailKey(email), now);
  }

  /** Whether so many wrong passwords came in for `email` lately that each address gets one try per 15 minutes. */
  async isUnderAttack(email: string, now = Date.now()): Promise<boolean> {
    return !(await this.limits.failuresByEmail.hasToken(emailKey(email), now));
  }

  /** After a password reset or change: the old guesses no longer matter. Per-address limits stay. */
  async forgetEmail(email: string): Promise<void> {
    await this.limits.byPair.forgetPrefix(pairPrefix(email));
    await this.limits.guardedPair.forgetPrefix(pairPrefix(email));
    await this.limits.failuresByEmail.forget(emailKey(email));
  }
}

/** The process's throttle, on the limits every process shares (shared-rate-limit.ts decides where they are kept). */
export function signInThrottle(): SignInThrottle {
  return new SignInThrottle({
    byAddress: exactBuckets(RULES.byAddress),
    byPair: exactBuckets(RULES.byPair),
    failuresByEmail: exactBuckets(RULES.failuresByEmail),
    guardedPair: exactBuckets(RULES.guardedPair),
  });
}
