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
/** An attempt from a browser with no (genuine) device cookie for the account. */
const noDevice = async () => null;

/** Attempts until the first refusal (at most `max`). */
async function attemptsUntilRefused(throttle: SignInThrottle, address: string, email: string, now = T0, max = 50): Promise<number> {
  for (let i = 0; i < max; i++) if (!(await throttle.admit(address, email, noDevice, now)).allowed) return i;
  return max;
}

describe("sign-in throttling", () => {
  it("refuses the sixth quick attempt from one address for one email, and lets the next one in after 12 s", async () => {
    const throttle = new SignInThrottle();
    expect(await attemptsUntilRefused(throttle, "203.0.113.1", "ada@example.com")).toBe(5);
    expect(await throttle.admit("203.0.113.1", "ada@example.com", noDevice, T0 + 11_000)).toEqual({ allowed: false, limitedBy: "account" });
    expect((await throttle.admit("203.0.113.1", "ada@example.com", noDevice, T0 + 12_000)).allowed).toBe(true);
  });

  it("keys the account limit by address and email together: guesses elsewhere never block the owner", async () => {
    const throttle = new SignInThrottle();
    await attemptsUntilRefused(throttle, "203.0.113.1", "ada@example.com");
    for (let i = 0; i < 5; i++) await throttle.recordFailure("ada@example.com", T0);
    expect(await throttle.admit("198.51.100.7", "ada@example.com", noDevice, T0)).toEqual({ allowed: true });
    // The attacker's own address is still refused for that email, and is free for other emails.
    expect((await throttle.admit("203.0.113.1", "ada@example.com", noDevice, T0)).allowed).toBe(false);
    expect((await throttle.admit("203.0.113.1", "grace@example.com", noDevice, T0)).allowed).toBe(true);
  });

  it("limits one address over all emails to 10 at once, then one every 6 s", async () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < 10; i++) expect((await throttle.admit("203.0.113.2", `user${i}@example.com`, noDevice, T0)).allowed).toBe(true);
    expect(await throttle.admit("203.0.113.2", "someone.else@example.com", noDevice, T0)).toEqual({ allowed: false, limitedBy: "address" });
    expect((await throttle.admit("203.0.113.2", "someone.else@example.com", noDevice, T0 + 6_000)).allowed).toBe(true);
    expect((await throttle.admit("198.51.100.8", "someone.else@example.com", noDevice, T0)).allowed).toBe(true);
  });

  it("counts an IPv6 address by its /64: a host cannot step around the per-address limit by changing its address", async () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < 10; i++)
      expect((await throttle.admit(`2001:db8:5:5::${i + 1}`, `v6user${i}@example.com`, noDevice, T0)).allowed).toBe(true);
    expect(await throttle.admit("2001:db8:5:5:abcd::99", "v6next@example.com", noDevice, T0)).toEqual({
      allowed: false,
      limitedBy: "address",
    });
    expect((await throttle.admit("2001:db8:5:6::1", "v6next@example.com", noDevice, T0)).allowed).toBe(true);
  });

  it("after 100 wrong passwords from everywhere, 130 fresh addresses are all refused before any password is checked", async () => {
    const throttle = new SignInThrottle();
    const email = "target@example.com";
    for (let i = 0; i < 99; i++) await throttle.recordFailure(email, T0);
    expect(await throttle.isUnderAttack(email, T0)).toBe(false);
    await throttle.recordFailure(email, T0);
    expect(await throttle.isUnderAttack(email, T0)).toBe(true);

    // One guess each from 130 addresses never seen before (IPv4 and IPv6 /64s alike), spread over 14 minutes.
    const verdicts = [];
    for (let i = 0; i < 130; i++) {
      const address = i % 2 ? `192.0.2.${i}` : `2001:db8:${i.toString(16)}::1`;
      verdicts.push(await throttle.admit(address, email, noDevice, T0 + i * 6_000));
    }
    expect(verdicts.filter((v) => v.allowed)).toEqual([]);
    expect(new Set(verdicts.map((v) => !v.allowed && v.limitedBy))).toEqual(new Set(["guarded"]));
  });

  it("while guarded, a browser that signed in before gets in (5 tries at once, then one a minute); others are refused", async () => {
    const throttle = new SignInThrottle();
    const email = "owner@example.com";
    for (let i = 0; i < 100; i++) await throttle.recordFailure(email, T0);
    const ownersBrowser = async () => "device-of-the-owner";
    expect(await throttle.admit("198.51.100.20", email, ownersBrowser, T0)).toEqual({ allowed: true });
    expect(await throttle.admit("198.51.100.20", email, noDevice, T0)).toEqual({ allowed: false, limitedBy: "guarded" });
    // The same cookie from other addresses is still one browser: 5 at once, then one a minute.
    let admitted = 1;
    for (let i = 0; i < 10; i++) if ((await throttle.admit(`198.51.100.${30 + i}`, email, ownersBrowser, T0)).allowed) admitted++;
    expect(admitted).toBe(5);
    expect(await throttle.admit("198.51.100.60", email, ownersBrowser, T0 + 60_000)).toEqual({ allowed: true });
  });

  it("asks about the device cookie only while the account is guarded", async () => {
    const throttle = new SignInThrottle();
    let asked = 0;
    const device = async () => (asked++, null);
    expect(await throttle.admit("198.51.100.70", "calm@example.com", device, T0)).toEqual({ allowed: true });
    expect(asked).toBe(0);
  });

  it("stays guarded for 15 minutes after the count ran out, so guessers together get about its refill, 100 an hour", async () => {
    const throttle = new SignInThrottle();
    const email = "siege@example.com";
    let admitted = 0;
    let n = 0;
    let guardedAt = 0;
    let admittedBeforeGuard = 0;
    // A new address for every guess, one guess a second for two hours; every admitted guess is wrong.
    for (let t = T0; t < T0 + 2 * 3600_000; t += 1000) {
      if ((await throttle.admit(`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`, email, noDevice, t)).allowed) {
        admitted++;
        await throttle.recordWrongPassword(email, t);
      }
      if (guardedAt === 0 && (await throttle.isUnderAttack(email, t))) guardedAt = t;
      // Guarded: nothing more for 15 minutes.
      if (guardedAt && t === guardedAt + 14 * 60_000) expect(admitted).toBe(admittedBeforeGuard);
      if (guardedAt === t) admittedBeforeGuard = admitted;
    }
    expect(admittedBeforeGuard).toBeGreaterThanOrEqual(100);
    expect(admittedBeforeGuard).toBeLessThanOrEqual(103);
    // 100 at once, then at most the refill (one per 36 s) over the two hours.
    expect(admitted).toBeGreaterThan(100);
    expect(admitted).toBeLessThanOrEqual(100 + Math.ceil(7200 / 36));
    // Once the wrong passwords stop, the count refills and the guard ends.
    expect(await throttle.isUnderAttack(email, T0 + 2 * 3600_000 + 3600_000)).toBe(false);
  });

  it("forgets an email's counts after a password reset or change, but not the per-address limit", async () => {
    const throttle = new SignInThrottle();
    const email = "forget@example.com";
    await attemptsUntilRefused(throttle, "203.0.113.3", email);
    for (let i = 0; i < 100; i++) await throttle.recordFailure(email, T0);
    await throttle.forgetEmail(email);
    expect(await throttle.isUnderAttack(email, T0)).toBe(false);
    expect((await throttle.admit("203.0.113.3", email, noDevice, T0)).allowed).toBe(true);
    // Another email's counts stay, including one that starts with the same text.
    const other = `${email}.other`;
    await attemptsUntilRefused(throttle, "203.0.113.4", other);
    await throttle.forgetEmail(email);
    expect((await throttle.admit("203.0.113.4", other, noDevice, T0)).allowed).toBe(false);
  });

  it("keys its buckets by keyed hashes: no email or address is stored, and forgetting an email still works", async () => {
    const keys: string[] = [];
    const throttle = new SignInThrottle({
      byAddress: recordingBuckets(keys, 100),
      byPair: recordingBuckets(keys),
      attemptsByEmail: recordingBuckets(keys),
      guardHold: recordingBuckets(keys),
      byDevice: recordingBuckets(keys),
    });
    expect(await attemptsUntilRefused(throttle, "203.0.113.9", "Zoë.Private@example.com")).toBe(5);
    await throttle.recordFailure("Zoë.Private@example.com", T0);
    await throttle.forgetEmail("Zoë.Private@example.com");
    expect((await throttle.admit("203.0.113.9", "Zoë.Private@example.com", noDevice, T0)).allowed).toBe(true);
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) {
      // Whole words only: a random 22-character hash contains a two-letter string like "Zo" once in ~200 runs.
      expect(key).not.toMatch(/example|203\.0\.113|zoë|private/i);
      expect(key).toMatch(/^[\w-]{22}(\.([\w-]{22})?)?$/);
    }
  });

  it("counts an attempt when it is admitted: 500 guesses sent at once from 100 networks get at most the count through", async () => {
    const throttle = new SignInThrottle();
    const email = "burst.target@example.com";
    const attempts = Array.from({ length: 500 }, (_, i) =>
      throttle.admit(`2001:db8:${Math.floor(i / 5).toString(16)}::${(i % 5) + 1}`, email, noDevice, T0),
    );
    const verdicts = await Promise.all(attempts);
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(100);
    expect(verdicts.filter((v) => !v.allowed && v.limitedBy === "guarded")).toHaveLength(400);
    // The guard is up: a second wave from fresh networks gets nothing through.
    const second = await Promise.all(
      Array.from({ length: 100 }, (_, i) => throttle.admit(`2001:db8:1:${i.toString(16)}::1`, email, noDevice, T0 + 60_000)),
    );
    expect(second.filter((v) => v.allowed).length).toBeLessThanOrEqual(2);
  });
});
