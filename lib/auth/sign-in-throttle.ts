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
// In memory, per process, like the API's rate limits (README, "Configuration").
import { TokenBucketLimiter } from "../core/rate-limit";
import { processSingleton } from "../core/process-singleton";

export type SignInVerdict = { allowed: true } | { allowed: false; limitedBy: "address" | "account" };

const SEP = "\u0000";
const pairKey = (email: string, address: string) => `${email}${SEP}${address}`;

export class SignInThrottle {
  readonly #byAddress = new TokenBucketLimiter(1 / 6, 10);
  readonly #byPair = new TokenBucketLimiter(1 / 12, 5);
  readonly #failuresByEmail = new TokenBucketLimiter(1 / 36, 100);
  readonly #guardedPair = new TokenBucketLimiter(1 / 900, 1);

  /** Takes one attempt for `email` from `address`; false means refuse it before checking the password. */
  admit(address: string, email: string, now = Date.now()): SignInVerdict {
    if (!this.#byAddress.take(address, now).allowed) return { allowed: false, limitedBy: "address" };
    const key = pairKey(email, address);
    if (!this.#byPair.take(key, now).allowed) return { allowed: false, limitedBy: "account" };
    if (this.isUnderAttack(email, now) && !this.#guardedPair.take(key, now).allowed) return { allowed: false, limitedBy: "account" };
    return { allowed: true };
  }

  /** A wrong password for `email` (from anywhere): counts towards the spread-out-attack threshold. */
  recordFailure(email: string, now = Date.now()): void {
    this.#failuresByEmail.take(email, now);
  }

  /** Whether so many wrong passwords came in for `email` lately that each address gets one try per 15 minutes. */
  isUnderAttack(email: string, now = Date.now()): boolean {
    return !this.#failuresByEmail.hasToken(email, now);
  }

  /** After a password reset or change: the old guesses no longer matter. Per-address limits stay. */
  forgetEmail(email: string): void {
    const prefix = `${email}${SEP}`;
    this.#byPair.forget((k) => k.startsWith(prefix));
    this.#guardedPair.forget((k) => k.startsWith(prefix));
    this.#failuresByEmail.forget((k) => k === email);
  }
}

// One per process: Next bundles the sign-in route and the server actions (which clear it) separately.
export function signInThrottle(): SignInThrottle {
  return processSingleton("auth.signInThrottle", () => new SignInThrottle());
}
