// The recipient's own wallet (/wallet) in Chromium, at 390×844 and 1440×900: signing in the way a
// person does (the form, the email read from the outbox, the link's page and its button), the list of
// cards with status pills and filters, the visibility toggle, sign-out, and a private credential as a
// stranger sees it (404) and as its signed-in recipient sees it (the recipient's view, no ?recipient=true).
// Screenshots of each view are attached.
import { randomUUID } from "node:crypto";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { expiredCredential, issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import { nextWalletLinkToken, seenWalletEmails } from "../support/wallet-session";

test.describe.configure({ timeout: 120_000 });

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1440, height: 900 } },
} as const;

async function newPage(browser: Browser, size: keyof typeof SIZES): Promise<Page> {
  const context = await browser.newContext({ ...SIZES[size], extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  return context.newPage();
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await expect
    .poll(() => page.locator("img").evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)), { timeout: 30_000 })
    .toBe(true);
  const file = testInfo.outputPath(name);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/** Signs in through the page: the form, the emailed link (from the outbox), the link page's button. */
async function signInThroughThePage(page: Page, baseURL: string, email: string, testInfo: TestInfo, size: string) {
  await page.goto(`${baseURL}/wallet`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to your wallet");
  await screenshot(page, testInfo, `${size}-sign-in.png`);
  const seen = seenWalletEmails(baseURL, email);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByTestId("wallet-check-email")).toContainText("Check your email");
  await screenshot(page, testInfo, `${size}-check-email.png`);
  const token = await nextWalletLinkToken(baseURL, email, seen);
  await page.goto(`${baseURL}/wallet/sign-in?token=${encodeURIComponent(token)}`);
  await screenshot(page, testInfo, `${size}-link-page.png`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${baseURL}/wallet`);
}

for (const size of ["phone", "desktop"] as const) {
  test(`${size}: sign in by email, see the cards, filter them, make one private, sign out`, async ({
    api,
    browser,
    server,
    newOrg,
    client,
  }, testInfo) => {
    // At PUBLIC_URL's host (localhost), as the email links to it: the previews are served from there too,
    // so a private credential's images reach its recipient with the session cookie.
    const base = `http://localhost:${server.port}`;
    const email = `browser.${size}.${randomUUID().slice(0, 8)}@example.com`;
    const group = await walletGroup(api, { name: "Machine Learning Foundations" });
    const other = await newOrg();
    const otherApi = await client({ token: other.token });
    const otherGroup = await walletGroup(otherApi, { name: "First Aid <Level 2>" });
    const kept = await issueCredential(api, group.id, { name: "Ada Lovelace", email });
    await expiredCredential(otherApi, otherGroup.id, { name: "Ada Lovelace", email });
    const revoked = await issueCredential(api, group.id, { name: "Ada Lovelace", email });
    await expectStatus(await api.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: "Replaced by a new certificate" } }), 200);

    const page = await newPage(browser, size);
    await signInThroughThePage(page, base, email, testInfo, size);
    await expect(page.getByTestId("wallet-signed-in-as")).toContainText(email);
    const cards = page.getByTestId("wallet-credential");
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0).getByTestId("status-pill")).toHaveText("Revoked");
    await expect(cards.nth(0).getByTestId("revocation-reason")).toHaveText("Revoked: Replaced by a new certificate");
    await expect(cards.nth(1).getByTestId("status-pill")).toHaveText("Expired");
    await expect(cards.nth(1).getByRole("heading", { level: 2 })).toHaveText("First Aid <Level 2>");
    await expect(cards.nth(2).getByTestId("status-pill")).toHaveText("Issued");
    await screenshot(page, testInfo, `${size}-list.png`);

    // Filters are a plain form: status "Expired" leaves one card, and stays in the address.
    await page.getByLabel("Status").selectOption("expired");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/status=expired/);
    await expect(cards).toHaveCount(1);
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(cards).toHaveCount(3);

    // Only me: the card says so in its live region; a stranger then gets the 404 page.
    const card = page.locator(`[data-public-id="${kept.publicId}"]`);
    await card.getByLabel("Only me").check();
    await expect(card.getByRole("status")).toContainText("is now private");
    const stranger = await newPage(browser, size);
    const answer = await stranger.goto(`${base}/credentials/${kept.publicId}`);
    expect(answer?.status()).toBe(404);
    await expect(stranger.locator("body")).not.toContainText("Ada Lovelace");
    await screenshot(stranger, testInfo, `${size}-private-as-stranger.png`);

    // The card opens the credential's page: the recipient's view, without ?recipient=true.
    await card.getByRole("link", { name: "Machine Learning Foundations" }).click();
    await page.waitForURL(`${base}/credentials/${kept.publicId}`);
    await expect(page.locator("[data-viewer]")).toHaveAttribute("data-viewer", "recipient");
    // Its images too: the previews answer the signed-in recipient.
    await expect
      .poll(
        () =>
          page.locator("main img").evaluateAll((imgs) => imgs.length > 0 && imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    // A private credential offers no public sharing (its link opens for nobody else): no Share, no
    // Add to LinkedIn, no share links, QR code or embed; its files, and "Make public to share" instead.
    await expect(page.getByTestId("make-public-to-share")).toHaveText("Make public to share");
    await expect(page.getByTestId("share-button")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Add to LinkedIn profile" })).toHaveCount(0);
    await expect(page.locator("#share-heading")).toHaveCount(0);
    await expect(page.locator("[data-network]")).toHaveCount(0);
    await expect(page.getByTestId("recipient-tools")).toBeVisible();
    expect(await page.content()).not.toContain("linkedin.com/profile/add");
    await screenshot(page, testInfo, `${size}-private-as-recipient.png`);
    await page.getByTestId("make-public-to-share").click();
    await expect(page.getByTestId("share-button")).toBeVisible();
    await expect(page.getByTestId("make-public-to-share")).toHaveCount(0);
    await screenshot(page, testInfo, `${size}-made-public.png`);
    expect((await stranger.goto(`${base}/credentials/${kept.publicId}`))?.status()).toBe(200);

    // Sign-out from the wallet: back to the sign-in form, and the credential is hidden again.
    await page.goto(`${base}/wallet`);
    await card.getByLabel("Only me").check();
    await expect(card.getByRole("status")).toContainText("is now private");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to your wallet");
    expect((await page.goto(`${base}/credentials/${kept.publicId}`))?.status()).toBe(404);
  });
}

test("the signed-out form says the same for any address, is labelled, and announces its result", async ({ browser, server }) => {
  const page = await newPage(browser, "phone");
  await page.goto(`${server.baseURL}/wallet`);
  // Enter would submit the plain form before the page's scripts take it over.
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", /.*/);
  const field = page.getByLabel("Email address");
  await field.focus();
  await field.fill("not an email");
  await page.keyboard.press("Enter");
  await expect(page.locator("#wallet-sign-in-error")).toHaveText("Enter a valid email address.");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await field.fill(`nobody.${randomUUID().slice(0, 8)}@example.com`);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("a sign-in link is on its way");
});
