// Dashboard sign-in under a guesser spread over many client addresses, through next-auth's own
// endpoints as a browser posts them: once the account's count of wrong passwords is spent, no fresh
// address gets a guess evaluated (the right password from one is refused too, with the emailed-link
// answer); the owner still gets in from a browser that signed in before (its device cookie) and
// through the emailed one-time link; a forged or another account's device cookie opens nothing.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { test, expect } from "../fixtures";
import { emlFilesContaining } from "../support/mail";
import {
  createAccount,
  DEVICE_COOKIE,
  emailedLinkToken,
  SIGN_IN_PASSWORD,
  SignInClient,
  spendWrongPasswordCount,
} from "../support/sign-in-http";

test.describe.configure({ timeout: 300_000 });

const PASSWORD = SIGN_IN_PASSWORD;

test("after an account's wrong-password count is spent, 130 fresh addresses get no guess evaluated; the owner still gets in", async ({
  server,
  baseURL,
}) => {
  const email = `owner.${randomUUID()}@example.com`;
  const other = `other.${randomUUID()}@example.com`;
  const [userId] = await Promise.all([createAccount(server, email), createAccount(server, other)]);

  // The owner's browser signs in once: it gets a signed, HttpOnly device cookie naming the account, no secret.
  const owners = new SignInClient(baseURL!);
  expect(await owners.password(email, PASSWORD)).toBe("");
  expect(await owners.sessionEmail()).toBe(email);
  const deviceHeader = owners.setCookieHeaders.find((h) => h.startsWith(`${DEVICE_COOKIE}=`));
  expect(deviceHeader).toMatch(/; HttpOnly/i);
  expect(deviceHeader).toMatch(/; SameSite=Lax/i);
  const deviceCookie = owners.cookies.get(DEVICE_COOKIE)!;
  expect(deviceCookie).toContain(userId);
  expect(deviceCookie).not.toContain(PASSWORD.replace(/ /g, ""));
  const othersBrowser = new SignInClient(baseURL!);
  expect(await othersBrowser.password(other, PASSWORD)).toBe("");

  await spendWrongPasswordCount(baseURL!, email);

  // 130 guesses, each from an address never seen before: none is evaluated.
  const guesser = new SignInClient(baseURL!);
  const outcomes: string[] = [];
  for (let i = 0; i < 130; i++) outcomes.push(await guesser.password(email, `guess ${i}`));
  expect(outcomes.filter((o) => o !== "UseEmailedLink")).toEqual([]);

  // The right password from a fresh address and a browser that never signed in: refused the same way.
  const fresh = new SignInClient(baseURL!);
  expect(await fresh.password(email, PASSWORD)).toBe("UseEmailedLink");
  expect(await fresh.sessionEmail()).toBeNull();

  // Another account's genuine device cookie, and a forged one, open nothing.
  const borrowed = new SignInClient(baseURL!);
  borrowed.cookies.set(DEVICE_COOKIE, othersBrowser.cookies.get(DEVICE_COOKIE)!);
  expect(await borrowed.password(email, PASSWORD)).toBe("UseEmailedLink");
  const forged = new SignInClient(baseURL!);
  forged.cookies.set(DEVICE_COOKIE, othersBrowser.cookies.get(DEVICE_COOKIE)!.replace(/^d2\.[^.]+/, `d2.${userId}`));
  expect(await forged.password(email, PASSWORD)).toBe("UseEmailedLink");
  expect(await forged.sessionEmail()).toBeNull();

  // The owner's browser, from yet another address, gets in with the password.
  const ownerAgain = new SignInClient(baseURL!);
  ownerAgain.cookies.set(DEVICE_COOKIE, deviceCookie);
  expect(await ownerAgain.password(email, PASSWORD)).toBe("");
  expect(await ownerAgain.sessionEmail()).toBe(email);

  // The emailed link signs the owner in once, from any browser, and marks that browser too.
  const token = await emailedLinkToken(server, email);
  const viaLink = new SignInClient(baseURL!);
  expect(await viaLink.signIn("sign-in-link", { token })).toBe("");
  expect(await viaLink.sessionEmail()).toBe(email);
  expect(viaLink.cookies.get(DEVICE_COOKIE)).toContain(userId);
  expect(await new SignInClient(baseURL!).signIn("sign-in-link", { token })).toBe("SignInLinkInvalid");
  expect(await new SignInClient(baseURL!).signIn("sign-in-link", { token: "made-up" })).toBe("SignInLinkInvalid");
});

test("an email no account has answers the same once its count is spent, and gets no email", async ({ server, baseURL }) => {
  const email = `nobody.${randomUUID()}@example.com`;
  await spendWrongPasswordCount(baseURL!, email);
  expect(await new SignInClient(baseURL!).password(email, PASSWORD)).toBe("UseEmailedLink");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(emlFilesContaining(path.join(server.dataDir, "mail"), email)).toEqual([]);
});
