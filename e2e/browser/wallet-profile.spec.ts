// The public profile as people use it, at 390×844 and 1440×900: on /wallet the recipient chooses a
// handle and a display name (with clear errors for a malformed or taken handle), makes the profile
// public and follows the link to /profiles/<handle>, which shows their public credentials as cards.
// Screenshots of each step at both sizes are attached.
import { randomUUID } from "node:crypto";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { test, expect } from "../fixtures";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import { signInToWallet } from "../support/wallet-session";

test.describe.configure({ timeout: 180_000 });

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1440, height: 900 } },
};

async function signedInPage(browser: Browser, size: keyof typeof SIZES, baseURL: string, email: string): Promise<Page> {
  const cookie = await signInToWallet(baseURL, email);
  const [name, value] = cookie.split(/=(.*)/s) as [string, string];
  const context = await browser.newContext({ ...SIZES[size], extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  await context.addCookies([{ name, value, url: baseURL }]);
  return context.newPage();
}

async function screenshot(page: Page, testInfo: TestInfo, name: string, fullPage = false) {
  await expect
    .poll(() => page.locator("img").evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)), { timeout: 30_000 })
    .toBe(true);
  const file = testInfo.outputPath(name);
  await page.screenshot({ path: file, fullPage });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

for (const size of ["phone", "desktop"] as const) {
  test(`profile settings on /wallet and the public profile (${size})`, async ({ api, server, browser }, testInfo) => {
    const email = `profile-${size}-${randomUUID().slice(0, 8)}@example.com`;
    const certificate = await walletGroup(api, { name: "Advanced Web Accessibility" });
    const badge = await walletGroup(api, { name: "Data Science Foundations", badge: true });
    await issueCredential(api, certificate.id, { name: "Ada Lovelace", email });
    await issueCredential(api, badge.id, { name: "Ada Lovelace", email });
    // Someone else holds a handle already.
    const taken = `taken-${randomUUID().slice(0, 8)}`;
    const otherEmail = `holder-${randomUUID().slice(0, 8)}@example.com`;
    await issueCredential(api, certificate.id, { name: "Other Holder", email: otherEmail });
    const otherCookie = await signInToWallet(server.baseURL, otherEmail);
    const claimed = await fetch(`${server.baseURL}/api/wallet/me/profile`, {
      method: "PATCH",
      headers: { Cookie: otherCookie, "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress() },
      body: JSON.stringify({ handle: taken }),
    });
    expect(claimed.status).toBe(200);

    const page = await signedInPage(browser, size, server.baseURL, email);
    await page.goto(`${server.baseURL}/wallet`);
    const settings = page.getByTestId("profile-settings");
    await expect(settings.getByRole("heading", { name: "Public profile" })).toBeVisible();
    await expect(page.getByTestId("download-all-link")).toHaveAttribute("href", "/api/wallet/me/download");

    const handleField = settings.getByLabel("Profile address");
    const nameField = settings.getByLabel("Display name");
    const publicSwitch = settings.getByLabel("Make my profile public");

    // Public without anything: both fields say what is missing.
    await publicSwitch.check();
    await settings.getByRole("button", { name: "Save profile" }).click();
    await expect(settings.getByTestId("handle-error")).toHaveText("Choose a profile address before making your profile public.");
    await expect(settings.getByTestId("display-name-error")).toHaveText("Enter a display name before making your profile public.");
    await expect(handleField).toHaveAttribute("aria-invalid", "true");

    // Malformed, then taken.
    await handleField.fill("ab");
    await nameField.fill("Ada Lovelace");
    await settings.getByRole("button", { name: "Save profile" }).click();
    await expect(settings.getByTestId("handle-error")).toHaveText("Use 3 to 40 characters: letters a–z, digits and hyphens.");
    await expect(settings.getByTestId("display-name-error")).toHaveCount(0);
    await handleField.fill(taken.toUpperCase());
    await settings.getByRole("button", { name: "Save profile" }).click();
    await expect(settings.getByTestId("handle-error")).toHaveText("This address is already taken. Choose another.");
    await expect(settings.getByTestId("profile-status")).toHaveText("This address is already taken. Choose another.");
    await settings.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `wallet-profile-settings-error-${size}.png`);

    // A good one, in capitals: saved in lower case, with the link to the public page.
    const handle = `ada-${size}-${randomUUID().slice(0, 6)}`;
    await handleField.fill(handle.toUpperCase());
    await settings.getByRole("button", { name: "Save profile" }).click();
    await expect(settings.getByTestId("profile-status")).toHaveText("Profile saved.");
    await expect(handleField).toHaveValue(handle);
    await expect(settings.getByTestId("handle-error")).toHaveCount(0);
    const link = settings.getByTestId("profile-link");
    await expect(link).toHaveAttribute("href", `http://localhost:${server.port}/profiles/${handle}`);
    await screenshot(page, testInfo, `wallet-profile-settings-saved-${size}.png`, true);

    await link.click();
    await expect(page).toHaveURL(`http://localhost:${server.port}/profiles/${handle}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ada Lovelace");
    await expect(page.getByTestId("profile-count")).toHaveText("2 credentials");
    const cards = page.getByTestId("profile-credentials").getByRole("listitem");
    await expect(cards).toHaveCount(2);
    await expect(cards.first().getByRole("link")).toContainText(/Data Science Foundations|Advanced Web Accessibility/);
    // No sideways scrolling on a phone.
    // Polled: the check reads layout, which settles as the card images arrive.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, testInfo, `public-profile-${size}.png`, true);

    // A card opens the credential's wallet page.
    await cards.first().getByRole("link").click();
    await expect(page).toHaveURL(/\/credentials\/[0-9a-f-]{36}$/);
    await page.context().close();
  });
}

test("a profile that is not public shows the same not-found page as an unknown handle", async ({ server, browser }, testInfo) => {
  const context = await browser.newContext({ ...SIZES.phone, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const page = await context.newPage();
  const response = await page.goto(`${server.baseURL}/profiles/nobody-${randomUUID().slice(0, 8)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Profile not found");
  await screenshot(page, testInfo, "public-profile-not-found-phone.png");
  await context.close();
});
