// Dashboard sessions that end and passwords that can be changed and reset, in Chromium: a copied
// session cookie stops working when its owner signs out; "sign out everywhere" and a password change
// end other browsers' sessions; a reset link arrives by email, works once, and ends every session;
// wrong passwords typed from one address never stop the owner signing in from another; and once guessers
// on many addresses spent an account's count of wrong passwords, a new browser is offered the emailed
// sign-in link while the owner's own browser still signs in with the password.
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { emailTo, expect, fillSignUp, newAccount, shot, signIn, signUp, site, test, type Account } from "../support/dashboard-helpers";
import { emailedLinkToken, spendWrongPasswordCount } from "../support/sign-in-http";
import type { ServerInfo } from "../support/state";
import { uniqueAddress } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

/** Another browser, from an address of its own. */
async function otherBrowser(browser: Browser, options: { address?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": options.address ?? uniqueAddress() } });
  return { context, page: await context.newPage() };
}

async function signedInElsewhere(browser: Browser, server: ServerInfo, account: Account) {
  const other = await otherBrowser(browser);
  await signIn(other.page, server, account.email, account.password);
  await other.page.waitForURL(`${site(server)}/dashboard`);
  return other;
}

/** Whether this browser's cookie still opens the dashboard. */
async function expectSignedOut(page: Page, server: ServerInfo) {
  await page.goto(`${site(server)}/dashboard/settings`);
  await expect(page).toHaveURL(`${site(server)}/signin`);
}

async function signOut(page: Page, server: ServerInfo) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(`${site(server)}/signin`);
}

test("signing out ends the session: a copy of its cookie no longer opens the dashboard", async ({ browser, page, server }) => {
  const account = newAccount();
  await signUp(page, server, account);
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.endsWith("next-auth.session-token"))).toBe(true);

  // The copy works while the session lasts…
  const thief = await otherBrowser(browser);
  await thief.context.addCookies(cookies);
  await thief.page.goto(`${site(server)}/dashboard`);
  await expect(thief.page.getByRole("heading", { level: 1 })).toHaveText(account.organizationName);

  // …and not once its owner signs out: not for pages, not for next-auth's own session endpoint.
  await signOut(page, server);
  await expectSignedOut(thief.page, server);
  const copy = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  await copy.addCookies(cookies);
  const session = await copy.request.get(`${site(server)}/api/auth/session`);
  expect(await session.json()).toEqual({});
  await copy.close();
  await thief.context.close();

  // The sign-in page's notices and errors come from the address: names it does not know show nothing odd.
  await page.goto(`${site(server)}/signin?signedOut=constructor&error=toString`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveCount(0);
  await expect(page.getByTestId("form-error")).toHaveText("Sign-in failed.");
});

test("sign out everywhere ends the sessions of every browser, this one included", async ({ browser, page, server }, testInfo) => {
  const account = newAccount();
  await signUp(page, server, account);
  const other = await signedInElsewhere(browser, server, account);

  await page.goto(`${site(server)}/dashboard/settings`);
  await expect(page.getByText("You are signed in on 2 browsers, this one included.")).toBeVisible();
  await shot(page, testInfo, "account-settings");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL(`${site(server)}/signin?signedOut=everywhere`);
  await expect(page.getByRole("status")).toHaveText("You have been signed out on every browser.");

  await expectSignedOut(other.page, server);
  await expectSignedOut(page, server);
  // Signing in again works, and only the new session counts.
  await signIn(page, server, account.email, account.password);
  await page.waitForURL(`${site(server)}/dashboard`);
  await page.goto(`${site(server)}/dashboard/settings`);
  await expect(page.getByText("You are signed in on 1 browser (this one).")).toBeVisible();
  await other.context.close();
});

test("changing the password needs the current one, keeps this browser signed in and signs the others out", async ({
  browser,
  page,
  server,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const account = newAccount();
  await signUp(page, server, account);
  const other = await signedInElsewhere(browser, server, account);
  await page.goto(`${site(server)}/dashboard/settings`);
  await page.getByRole("heading", { name: "Your account" }).scrollIntoViewIfNeeded();
  await shot(page, testInfo, "settings-390");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const form = page.getByRole("form", { name: "Change password" });

  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("a much better passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#current-password-error")).toHaveText("Current password is not correct.");
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Current password").fill(account.password);
  await page.getByLabel("New password").fill("short");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#new-password-error")).toHaveText("New password must be at least 10 characters.");

  await page.getByLabel("New password").fill("a much better passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Password changed. Every other browser signed in to your account has been signed out; this one stays signed in.",
  );
  await expect(page.getByLabel("Current password")).toHaveValue("");

  // This browser goes on; the other one has been signed out.
  await page.goto(`${site(server)}/dashboard`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(account.organizationName);
  await expectSignedOut(other.page, server);

  // The old password no longer signs in; the new one does.
  await signOut(page, server);
  await signIn(page, server, account.email, account.password);
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await signIn(page, server, account.email, "a much better passphrase");
  await page.waitForURL(`${site(server)}/dashboard`);
  await other.context.close();
});

test("a password reset link arrives by email, sets a new password once and signs every browser out", async ({
  browser,
  page,
  server,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const account = newAccount();
  await signUp(page, server, account);
  const other = await signedInElsewhere(browser, server, account);
  await signOut(page, server);

  // The form answers the same whether or not an account has the email.
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(`${site(server)}/forgot-password`);
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.locator("#email-error")).toHaveText("must be a valid email address");
  await page.getByLabel("Email").fill(`nobody.${randomUUID()}@example.com`);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  const answerForNobody = await page.getByTestId("reset-requested").textContent();
  await page.goto(`${site(server)}/forgot-password`);
  await page.getByLabel("Email").fill(account.email.toUpperCase());
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toHaveText(answerForNobody!);
  await expect(page.getByTestId("reset-requested")).toContainText("The link works for 60 minutes.");
  await shot(page, testInfo, "forgot-password-390");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const mail = await emailTo(server, account.email);
  expect(mail.subject).toBe("Reset your password");
  const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  expect(link!.startsWith(`${site(server)}/reset-password?token=`)).toBe(true);

  await page.goto(link!);
  await page.getByLabel("New password").fill("too short");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.locator("#new-password-error")).toHaveText("The new password must be at least 10 characters.");
  await shot(page, testInfo, "reset-password-390");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByLabel("New password").fill("reset by email 2030");
  await page.getByRole("button", { name: "Set new password" }).click();
  await page.waitForURL(`${site(server)}/signin?passwordReset=1`);
  await expect(page.getByRole("status")).toContainText("Your password has been changed");

  // Every browser was signed out; the old password fails, the new one signs in.
  await expectSignedOut(other.page, server);
  await signIn(page, server, account.email, account.password);
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await signIn(page, server, account.email, "reset by email 2030");
  await page.waitForURL(`${site(server)}/dashboard`);

  // The link does not work twice.
  await page.goto(link!);
  await expect(page.getByTestId("invalid-link")).toHaveText(
    "This password reset link has expired or has already been used. Ask for a new one.",
  );
  await expect(page.getByLabel("New password")).toHaveCount(0);
  await other.context.close();
});

test("wrong passwords from one address do not stop the owner signing in from another", async ({ browser, page, server }) => {
  const account = newAccount();
  await signUp(page, server, account);
  await signOut(page, server);

  // Someone else guesses from another address until refused (the exact counts are unit-tested: here,
  // seconds pass between attempts and the limit refills one every 12 s).
  const attacker = await otherBrowser(browser);
  let refused = false;
  for (let i = 0; i < 8 && !refused; i++) {
    await signIn(attacker.page, server, account.email, `guess number ${i}`);
    const error = attacker.page.getByTestId("form-error");
    await expect(error).toBeVisible();
    refused = (await error.textContent())!.includes("Too many sign-in attempts");
  }
  expect(refused).toBe(true);
  await attacker.context.close();

  // The owner, from their own address (this page's), signs in at once.
  await signIn(page, server, account.email, account.password);
  await page.waitForURL(`${site(server)}/dashboard`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(account.organizationName);
});

test("guessed from many addresses, the account takes a password only in a browser that signed in before; a new one gets the emailed link", async ({
  browser,
  page,
  server,
}, testInfo) => {
  test.setTimeout(300_000); // 100-odd wrong passwords, each a deliberately slow password hash on the server
  await page.setViewportSize({ width: 390, height: 844 });
  const account = newAccount();
  await signUp(page, server, account);
  await signOut(page, server);
  await spendWrongPasswordCount(server.baseURL, account.email);

  // A browser that never signed in to the account, with the right password: refused, pointed at the email.
  const newcomer = await otherBrowser(browser);
  await newcomer.page.setViewportSize({ width: 390, height: 844 });
  await signIn(newcomer.page, server, account.email, account.password);
  await expect(newcomer.page.getByTestId("form-error")).toContainText("we have emailed it a one-time sign-in link");
  await shot(newcomer.page, testInfo, "sign-in-guarded-390");
  expect(await newcomer.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The owner's own browser signs in with the password as usual.
  await signIn(page, server, account.email, account.password);
  await page.waitForURL(`${site(server)}/dashboard`);

  // The emailed link: opening it uses nothing up; its button signs in, once.
  const link = `${site(server)}/signin/link?token=${encodeURIComponent(await emailedLinkToken(server, account.email))}`;
  await newcomer.page.goto(link);
  await expect(newcomer.page.getByRole("heading", { name: "Sign in with your link" })).toBeVisible();
  await shot(newcomer.page, testInfo, "sign-in-link-390");
  expect(await newcomer.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await newcomer.page.getByRole("button", { name: "Sign in" }).click();
  await newcomer.page.waitForURL(`${site(server)}/dashboard`);
  await expect(newcomer.page.getByRole("heading", { level: 1 })).toHaveText(account.organizationName);
  await newcomer.context.close();

  const late = await otherBrowser(browser);
  await late.page.goto(link);
  await expect(late.page.getByTestId("invalid-link")).toHaveText(
    "This sign-in link has expired or has already been used. Sign in again to get a new one.",
  );
  await late.context.close();
});

test("sign-ups from one address: 10, then the form says when to try again and no account is made; another address signs up", async ({
  browser,
  server,
}, testInfo) => {
  const address = uniqueAddress();
  for (let i = 0; i < 10; i++) {
    const { context, page } = await otherBrowser(browser, { address });
    await signUp(page, server, newAccount(`Lab ${i}`));
    await context.close();
  }
  const { context, page } = await otherBrowser(browser, { address });
  const refused = newAccount("Eleventh");
  await page.goto(`${site(server)}/signup`);
  await fillSignUp(page, refused);
  await expect(page.getByText(/^Too many sign-ups from your network\. Please try again in \d+ minutes?\.$/)).toBeVisible();
  await expect(page).toHaveURL(`${site(server)}/signup`);
  await shot(page, testInfo, "sign-up-limited");
  await signIn(page, server, refused.email, refused.password);
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await context.close();

  const elsewhere = await otherBrowser(browser);
  await signUp(elsewhere.page, server, newAccount("Elsewhere"));
  await elsewhere.context.close();
});
