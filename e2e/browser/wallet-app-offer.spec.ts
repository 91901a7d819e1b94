// "Add to a wallet app" (docs/api.md, OpenID4VCI) at 390×844: on the credential's wallet page the
// recipient (mark) without a session is asked to sign in first, a guest sees nothing; signed in, the
// page and the /wallet card show the offer as a QR code and a link with its expiry. Screenshots are
// attached and kept in test-results.
import type { Page, TestInfo } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createCredential, issue, newGroup, uniqueEmail } from "../support/credentials";
import { uniqueAddress } from "../support/wallet-helpers";
import { signInToWallet } from "../support/wallet-session";

test.describe.configure({ timeout: 120_000 });

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(name);
  await page.screenshot({ path: file, fullPage: false });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

test("a recipient adds the credential to a wallet app from their phone", async ({ browser, api, server }, testInfo) => {
  const email = uniqueEmail("wallet-app");
  const group = await newGroup(api, { name: "Advanced First Aid" });
  const credential = await issue(api, (await createCredential(api, { groupId: group.id, recipient: { name: "Grace Hopper", email } })).id);
  const pageUrl = `${server.baseURL}/credentials/${credential.publicId}`;

  // A guest: no offer at all.
  const guestContext = await browser.newContext({ ...PHONE, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const guest = await guestContext.newPage();
  await guest.goto(pageUrl);
  await expect(guest.locator("[data-viewer]")).toHaveAttribute("data-viewer", "guest");
  await expect(guest.getByTestId("wallet-app-offer")).toHaveCount(0);
  await guestContext.close();

  // The recipient mark without a session: asked to sign in first.
  const context = await browser.newContext({ ...PHONE, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const page = await context.newPage();
  await page.goto(`${pageUrl}?recipient=true`);
  const offer = page.getByTestId("wallet-app-offer");
  await expect(offer).toBeVisible();
  await offer.getByTestId("wallet-app-show").click();
  await expect(offer.getByTestId("wallet-app-sign-in")).toBeVisible();
  await expect(offer.getByTestId("wallet-app-qr")).toHaveCount(0);
  await offer.scrollIntoViewIfNeeded();
  await shot(page, testInfo, "wallet-app-offer-sign-in-first-390.png");

  // Signed in: the QR code, the link and when it stops working.
  const cookie = await signInToWallet(server.baseURL, email);
  const [name, value] = cookie.split(/=(.*)/s);
  await context.addCookies([{ name: name!, value: value!, url: server.baseURL }]);
  await page.goto(pageUrl);
  await page.getByTestId("wallet-app-show").click();
  const qr = page.getByTestId("wallet-app-qr");
  await expect(qr).toBeVisible();
  await expect(page.getByTestId("wallet-app-link")).toHaveAttribute("href", /^openid-credential-offer:\/\/\?credential_offer=/);
  await expect(page.getByTestId("wallet-app-expiry")).toContainText(/\d\d:\d\d/);
  const box = await qr.boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(200);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await page.getByTestId("wallet-app-offer").scrollIntoViewIfNeeded();
  await shot(page, testInfo, "wallet-app-offer-credential-page-390.png");

  // The same on the /wallet card.
  await page.goto(`${server.baseURL}/wallet`);
  const card = page.locator(`[data-public-id="${credential.publicId}"]`);
  await card.getByTestId("wallet-app-show").click();
  await expect(card.getByTestId("wallet-app-qr")).toBeVisible();
  await card.getByTestId("wallet-app-offer").scrollIntoViewIfNeeded();
  await shot(page, testInfo, "wallet-app-offer-wallet-card-390.png");
  await context.close();
});
