// Signing in with a password while an account is under a guesser spread over many addresses: nobody's
// password is even checked unless their browser signed in to the account before; the owner gets in
// from such a browser or through the emailed sign-in link.
import { describe, expect, it, vi } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("password-sign-in");

/** How many passwords were checked (authenticateUser runs the password hash). */
const checked = vi.hoisted(() => ({ count: 0 }));
vi.mock("../accounts/service", async (importOriginal) => {
  const original = await importOriginal<typeof import("../accounts/service")>();
  return {
    ...original,
    authenticateUser: (email: string, password: string) => (checked.count++, original.authenticateUser(email, password)),
  };
});

const { db } = await import("../db");
const { signUp } = await import("../accounts/service");
const { redeemSignInLink } = await import("../accounts/sign-in-link");
const { signInWithPassword } = await import("./password-sign-in");
const { signInThrottle } = await import("./sign-in-throttle");
const { deviceCookieValue } = await import("./sign-in-device");

const PASSWORD = "correct horse battery";
let addressCounter = 0;
const freshAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

async function newAccount() {
  const email = `owner.${Math.random().toString(36).slice(2)}@example.com`;
  const { userId } = await signUp(
    { name: "Ada", email, password: PASSWORD, organizationName: "Org" },
    { clientAddress: `test-${Math.random()}` },
  );
  return { userId, email };
}

/** Spends the email's wrong-password count (100), as guessers on 100 addresses would. */
async function spendBudget(email: string) {
  for (let i = 0; i < 100; i++) await signInThrottle().recordFailure(email);
}

const attempt = (email: string, password: string, deviceCookie: string | null = null, clientAddress = freshAddress()) =>
  signInWithPassword({ email, password, clientAddress, deviceCookie });

/** The sign-in link in the newest email to `email`, once the (unawaited) request has written it. */
async function linkTokenMailedTo(email: string): Promise<string> {
  await vi.waitFor(
    async () => expect(await db().emailOutbox.count({ where: { toAddress: email, subject: "Your sign-in link" } })).toBeGreaterThan(0),
    { timeout: 5000 },
  );
  const mail = await db().emailOutbox.findFirstOrThrow({
    where: { toAddress: email, subject: "Your sign-in link" },
    orderBy: { createdAt: "desc" },
  });
  return decodeURIComponent(/\/signin\/link\?token=([A-Za-z0-9_%-]+)/.exec(mail.text)![1]!);
}

describe("password sign-in once the account's wrong-password count is spent", () => {
  it("130 fresh addresses are all refused with the emailed-link answer and no password is checked, not even the right one", async () => {
    const { email } = await newAccount();
    expect(await attempt(email, PASSWORD)).toMatchObject({ outcome: "signed-in" });
    await spendBudget(email);
    const before = checked.count;
    const outcomes = [];
    for (let i = 0; i < 130; i++) outcomes.push((await attempt(email, `guess ${i}`)).outcome);
    expect(new Set(outcomes)).toEqual(new Set(["use-emailed-link"]));
    expect(await attempt(email, PASSWORD)).toEqual({ outcome: "use-emailed-link" });
    expect(checked.count).toBe(before);
  });

  it("a forged cookie, or another account's genuine one, gives no way past the guard", async () => {
    const { userId, email } = await newAccount();
    const other = await newAccount();
    await spendBudget(email);
    const before = checked.count;
    const genuine = deviceCookieValue(userId, 0);
    const [version, , sessionVersion, expires, nonce, mac] = genuine.split(".");
    expect(await attempt(email, PASSWORD, deviceCookieValue(other.userId, 0))).toEqual({ outcome: "use-emailed-link" });
    expect(
      await attempt(
        email,
        PASSWORD,
        [version, userId, sessionVersion, expires, nonce, mac!.replace(/^./, (c) => (c === "a" ? "b" : "a"))].join("."),
      ),
    ).toEqual({ outcome: "use-emailed-link" });
    expect(await attempt(email, PASSWORD, [version, userId, sessionVersion, expires, "forgednonce0000", mac].join("."))).toEqual({
      outcome: "use-emailed-link",
    });
    // The other account's cookie is for the other account only.
    expect(await attempt(email, PASSWORD, genuine.replace(userId, other.userId))).toEqual({ outcome: "use-emailed-link" });
    expect(checked.count).toBe(before);
  });

  it("the owner gets in from a browser that signed in before, from any address, and a wrong password there still counts", async () => {
    const { userId, email } = await newAccount();
    await spendBudget(email);
    const cookie = deviceCookieValue(userId, 0);
    expect(await attempt(email, "not it", cookie)).toEqual({ outcome: "wrong-password" });
    expect(await attempt(email, PASSWORD, cookie)).toMatchObject({ outcome: "signed-in", user: { id: userId, email } });
  });

  it("a device cookie set before the account's sessions were ended (sign out everywhere) no longer vouches for its browser", async () => {
    const { userId, email } = await newAccount();
    const cookie = deviceCookieValue(userId, 0);
    await db().user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
    await spendBudget(email);
    const before = checked.count;
    expect(await attempt(email, PASSWORD, cookie)).toEqual({ outcome: "use-emailed-link" });
    expect(checked.count).toBe(before);
    expect(await attempt(email, PASSWORD, deviceCookieValue(userId, 1))).toMatchObject({ outcome: "signed-in" });
  });

  it("the owner gets in through the emailed link, which works once; an unknown email gets the same answer and no email", async () => {
    const { userId, email } = await newAccount();
    await spendBudget(email);
    expect(await attempt(email, PASSWORD)).toEqual({ outcome: "use-emailed-link" });
    const token = await linkTokenMailedTo(email);
    expect(await redeemSignInLink(token)).toMatchObject({ id: userId, email });
    expect(await redeemSignInLink(token)).toBeNull();

    const nobody = `nobody.${Math.random().toString(36).slice(2)}@example.com`;
    await spendBudget(nobody);
    expect(await attempt(nobody, PASSWORD)).toEqual({ outcome: "use-emailed-link" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await db().emailOutbox.count({ where: { toAddress: nobody } })).toBe(0);
  });

  it("before the count is spent nothing changes: a wrong password is checked and answered as wrong", async () => {
    const { email } = await newAccount();
    const before = checked.count;
    expect(await attempt(email, "not it")).toEqual({ outcome: "wrong-password" });
    expect(checked.count).toBe(before + 1);
  });
});
