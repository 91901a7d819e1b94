import { describe, expect, it } from "vitest";
import { MemoryBuckets, type Buckets } from "../rate-limit/token-buckets";
import { SignInThrottle } from "./sign-in-throttle";

/** MemoryBuckets that note every key they are asked about: what a database table of them would hold. */
function recordingBuckets(keys: string[], burst = 5): Buckets {
  const inner = new MemoryBuckets(1, burst);
  return {
    take: (key, now) => (keys.push(key), inner.take(key, now)),
    hasToken: (key, now) => (keys.push(key), inner.hasToken(key, now)),
    forget: (key) => (keys.push(key), inner.forget(key)),
    forgetPrefix: (prefix) => (keys.push(prefix), inner.forgetPrefix(prefix)),
  };
}

const T0 = 1_800_000_000_000;

/** Attempts until the first refusal (at most `max`). */
async function attemptsUntilRefused(throttle: SignInThrottle, address: string, email: string, now = T0, max = 50): Promise<number> {
  for (let i = 0; i < max; i++) if (!(await throttle.admit(address, email, now)).allowed) return i;
  return max;
}

describe("sign-in throttling", () => {
  it("refuses the sixth quick attempt from one address for one email, and lets the next one in after 12 s", async () => {
    const throttle = new SignInThrottle();
    expect(await attemptsUntilRefused(throttle, "203.0.113.1", "ada@example.com")).toBe(5);
    expect(await throttle.admit("203.0.113.1", "ada@example.com", T0 + 11_000)).toEqual({ allowed: false, limitedBy: "account" });
    expect((await throttle.admit("203.0.113.1", "ada@example.com", T0 + 12_000)).allowed).toBe(true);
  });

  it("keys the account limit by address and email together: guesses elsewhere never block the owner", async () => {
    const throttle = new SignInThrottle();
    await attemptsUntilRefused(throttle, "203.0.113.1", "ada@example.com");
    for (let i = 0; i < 5; i++) (await throttle.recordFailure("ada@example.com", T0));
    expect(await throttle.admit("198.51.100.7", "ada@example.com", T0)).toEqual({ allowed: true });
    // The attacker's own address is still refused for that email, and is free for other emails.
    expect((await throttle.admit("203.0.113.1", "ada@example.com", T0)).allowed).toBe(false);
    expect((await throttle.admit("203.0.113.1", "grace@example.com", T0)).allowed).toBe(true);
  });

  it("limits one address over all emails to 10 at once, then one every 6 s", async () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < 10; i++) expect((await throttle.admit("203.0.113.2", `user${i}@example.com`, T0)).allowed).toBe(true);
    expect(await throttle.admit("203.0.113.2", "someone.else@example.com", T0)).toEqual({ allowed: false, limitedBy: "address" });
    expect((await throttle.admit("203.0.113.2", "someone.else@example.com", T0 + 6_000)).allowed).toBe(true);
    expect((await throttle.admit("198.51.100.8", "someone.else@example.com", T0)).allowed).toBe(true);
  });

  it("counts an IPv6 address by its /64: a host cannot step around the per-address limit by changing its address", async () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < 10; i++) expect((await throttle.admit(`2001:db8:5:5::${i + 1}`, `v6user${i}@example.com`, T0)).allowed).toBe(true);
    expect(await throttle.admit("2001:db8:5:5:abcd::99", "v6next@example.com", T0)).toEqual({ allowed: false, limitedBy: "address" });
    expect((await throttle.admit("2001:db8:5:6::1", "v6next@example.com", T0)).allowed).toBe(true);
  });

  it("after 100 wrong passwords from everywhere, lets guesses in only as fast as the count refills, and the owner's first try still goes in", async () => {
    const throttle = new SignInThrottle();
    const email = "target@example.com";
    for (let i = 0; i < 99; i++) (await throttle.recordFailure(email, T0));
    expect((await throttle.isUnderAttack(email, T0))).toBe(false);
    await throttle.recordFailure(email, T0);
    expect((await throttle.isUnderAttack(email, T0))).toBe(true);

    // A fresh address gets one guess at once, then not another 12 s later as it otherwise would.
    expect((await throttle.admit("192.0.2.50", email, T0)).allowed).toBe(true);
    await throttle.recordFailure(email, T0);
    expect((await throttle.admit("192.0.2.50", email, T0 + 12_000)).allowed).toBe(false);

    // Guessing on for 15 minutes, one try every 12 s from each of 3 addresses: every wrong password
    // keeps the count empty, so together they get about one guess per 36 s (the refill), not 3 x 5 a minute.
    let admitted = 0;
    for (let t = T0 + 12_000; t < T0 + 900_000; t += 12_000) {
      for (const address of ["192.0.2.50", "192.0.2.51", "192.0.2.52"]) {
        if ((await throttle.admit(address, email, t)).allowed) {
          admitted++;
          await throttle.recordFailure(email, t);
        }
      }
      // The owner, from an address that has not tried lately, is always let in to check the password.
      if (t === T0 + 600_000) expect(await throttle.admit("198.51.100.9", email, t)).toEqual({ allowed: true });
    }
    expect(admitted).toBeLessThanOrEqual(Math.ceil(888 / 36) + 3);
    expect(admitted).toBeGreaterThan(0);
    // Once the wrong passwords stop, the count refills and the attack mode ends.
    expect((await throttle.isUnderAttack(email, T0 + 900_000 + 36_000))).toBe(false);
  });

  it("forgets an email's counts after a password reset or change, but not the per-address limit", async () => {
    const throttle = new SignInThrottle();
    const email = "forget@example.com";
    await attemptsUntilRefused(throttle, "203.0.113.3", email);
    for (let i = 0; i < 100; i++) (await throttle.recordFailure(email, T0));
    await throttle.forgetEmail(email);
    expect((await throttle.isUnderAttack(email, T0))).toBe(false);
    expect((await throttle.admit("203.0.113.3", email, T0)).allowed).toBe(true);
    // Another email's counts stay, including one that starts with the same text.
    const other = `${email}.other`;
    await attemptsUntilRefused(throttle, "203.0.113.4", other);
    await throttle.forgetEmail(email);
    expect((await throttle.admit("203.0.113.4", other, T0)).allowed).toBe(false);
  });

  it("keys its buckets by keyed hashes: no email or address is stored, and forgetting an email still works", async () => {
    const keys: string[] = [];
    const throttle = new SignInThrottle({ byAddress: recordingBuckets(keys, 100), byPair: recordingBuckets(keys), failuresByEmail: recordingBuckets(keys), guardedPair: recordingBuckets(keys) });
    expect(await attemptsUntilRefused(throttle, "203.0.113.9", "Zoë.Private@example.com")).toBe(5);
    await throttle.recordFailure("Zoë.Private@example.com", T0);
    await throttle.forgetEmail("Zoë.Private@example.com");
    expect((await throttle.admit("203.0.113.9", "Zoë.Private@example.com", T0)).allowed).toBe(true);
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) {
      expect(key).not.toMatch(/example|203\.0\.113|Zo/);
      expect(key).toMatch(/^[\w-]{22}(\.([\w-]{22})?)?$/);
    }
  });
});
