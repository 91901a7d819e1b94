// How fast anyone may try passwords, built so that guessing is slow but nobody can lock the owner out.
// A limit keyed by email alone (what this replaced) let anyone stop a person signing in by typing
// wrong passwords for their email. The rule (also in the README, "Signing in"):
//   - per client address, over all emails: 10 attempts at once, then one every 6 s (spraying many
//     accounts from one place);
//   - per (client address, email) pair: 5 at once, then one every 12 s (guessing one account from one
//     place). Guesses from other addresses use other pairs, so they never block the owner's;
//   - per email, password attempts from all addresses together: 100 at once, then one every 36 s. The
//     count is taken when an attempt is admitted, before its password is checked, so that guesses sent
//     all at once cannot slip past it while the first ones are still being checked. When an attempt
//     uses the count up, the account is guarded for the next 15 minutes (and again each time a wrong
//     password finds the count used up): a password is then checked only from a
//     browser that signed in to this account before (its signed device cookie, sign-in-device.ts; 5
//     tries at once, then one a minute per browser). Every other attempt is refused before the password
//     is looked at, however many addresses send them (an IPv6 host owns 2^64), so all guessers together
//     get about the refill, 100 guesses an hour. The owner is never locked out: their browser gets in,
//     and a refused attempt offers a one-time sign-in link by email (lib/accounts/sign-in-link.ts);
//   - a password reset or change forgets what was counted for that email.
// Kept where lib/auth/shared-rate-limit.ts keeps limits: in the database on PostgreSQL, so every process
// counts the same attempts (N web processes do not allow N times as many guesses); in memory on SQLite.
import type { Buckets } from "../rate-limit/token-buckets";
import { MemoryBuckets } from "../rate-limit/token-buckets";
import { addressSubject, exactBuckets, rateLimitSubject, type LimitRule } from "../rate-limit/shared-rate-limit";

/**
 * "guarded": the email's wrong-password count is used up and this attempt comes from no browser that
 * signed in to the account before; the way in is the emailed sign-in link.
 */
export type SignInVerdict = { allowed: true } | { allowed: false; limitedBy: "address" | "account" | "guarded" };

/**
 * The browser's device cookie, when it is genuine and names the account of the email tried: its own
 * key (one per cookie, so a copied cookie is limited as one browser). Asked for only while guarded.
 */
export type KnownDevice = () => Promise<string | null>;

const RULES = {
  byAddress: { name: "signin.address", perSecond: 1 / 6, burst: 10 },
  byPair: { name: "signin.pair", perSecond: 1 / 12, burst: 5 },
  attemptsByEmail: { name: "signin.attempts", perSecond: 1 / 36, burst: 100 },
  // Empty for 15 minutes after a wrong password found the email's count used up: the account stays guarded.
  guardHold: { name: "signin.hold", perSecond: 1 / 900, burst: 1 },
  byDevice: { name: "signin.device", perSecond: 1 / 60, burst: 5 },
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
      attemptsByEmail: new MemoryBuckets(RULES.attemptsByEmail.perSecond, RULES.attemptsByEmail.burst),
      guardHold: new MemoryBuckets(RULES.guardHold.perSecond, RULES.guardHold.burst),
      byDevice: new MemoryBuckets(RULES.byDevice.perSecond, RULES.byDevice.burst),
    },
  ) {}

  /** Takes one attempt for `email` from `address`; false means refuse it before checking the password. */
  async admit(address: string, email: string, knownDevice: KnownDevice = async () => null, now = Date.now()): Promise<SignInVerdict> {
    if (!(await this.admitLinkUse(address, now))) return { allowed: false, limitedBy: "address" };
    if (!(await this.limits.byPair.take(pairKey(email, address), now)).allowed) return { allowed: false, limitedBy: "account" };
    if (!(await this.guardHeld(email, now)) && (await this.countAttempt(email, now))) return { allowed: true };
    const device = await knownDevice();
    if (device === null) return { allowed: false, limitedBy: "guarded" };
    if (!(await this.limits.byDevice.take(rateLimitSubject(`device:${device}`), now)).allowed)
      return { allowed: false, limitedBy: "account" };
    return { allowed: true };
  }

  /** One use of an emailed sign-in link from `address`: counted with the address's sign-in attempts. */
  async admitLinkUse(address: string, now = Date.now()): Promise<boolean> {
    return (await this.limits.byAddress.take(addressKey(address), now)).allowed;
  }

  /**
   * Counts one attempt against the email's count, in one atomic take (every store's take is), and arms
   * the guard when that uses the count up. False when the count was already used up.
   */
  private async countAttempt(email: string, now: number): Promise<boolean> {
    const key = emailKey(email);
    const left = await this.limits.attemptsByEmail.take(key, now);
    if (!left.allowed || left.remaining < 1) await this.limits.guardHold.take(key, now);
    return left.allowed;
  }

  private async guardHeld(email: string, now: number): Promise<boolean> {
    return !(await this.limits.guardHold.hasToken(emailKey(email), now));
  }

  /**
   * A wrong password tried without admit() (the current password in settings): counted like an
   * admitted attempt.
   */
  async recordFailure(email: string, now = Date.now()): Promise<void> {
    await this.countAttempt(email, now);
  }

  /** A wrong password from an admitted attempt (already counted): keeps the guard up while the count is spent. */
  async recordWrongPassword(email: string, now = Date.now()): Promise<void> {
    const key = emailKey(email);
    if (!(await this.limits.attemptsByEmail.hasToken(key, now))) await this.limits.guardHold.take(key, now);
  }

  /** Whether so many attempts came in for `email` lately that only known browsers may try one. */
  async isUnderAttack(email: string, now = Date.now()): Promise<boolean> {
    return (await this.guardHeld(email, now)) || !(await this.limits.attemptsByEmail.hasToken(emailKey(email), now));
  }

  /** After a password reset or change: the old guesses no longer matter. Per-address limits stay. */
  async forgetEmail(email: string): Promise<void> {
    await this.limits.byPair.forgetPrefix(pairPrefix(email));
    await this.limits.attemptsByEmail.forget(emailKey(email));
    await this.limits.guardHold.forget(emailKey(email));
  }
}

/** The process's throttle, on the limits every process shares (shared-rate-limit.ts decides where they are kept). */
export function signInThrottle(): SignInThrottle {
  return new SignInThrottle({
    byAddress: exactBuckets(RULES.byAddress),
    byPair: exactBuckets(RULES.byPair),
    attemptsByEmail: exactBuckets(RULES.attemptsByEmail),
    guardHold: exactBuckets(RULES.guardHold),
    byDevice: exactBuckets(RULES.byDevice),
  });
}
