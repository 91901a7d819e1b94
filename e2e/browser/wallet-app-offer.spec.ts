// "Add to a wallet app" (docs/api.md, OpenID4VCI) at 390×844: on the credential's wallet page the
// recipient (mark) without a session is asked to sign in first, a guest sees nothing; signed in, the
// page and the /wallet card show the offer as a QR code and a link with its expiry. At 1440×900, the
// same for a credential its recipient made private (their own wallet app may hold it), and the offered
// code is redeemed. Screenshots are attached and kept in test-results.
import type { Page, TestInfo } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createCredential, issue, newGroup, uniqueEmail } from "../support/credentials";
import { uniqueAddress } from "../support/wallet-helpers";
import { signInToWallet } from "../support/wallet-session";

test.describe.configure({ timeout: 120_000 });

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

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

test("on a desktop, a private credential's recipient adds it to a wallet app, and the offered code works", async ({
  browser,
  api,
  server,
}, testInfo) => {
  const email = uniqueEmail("wallet-app-private");
  const group = await newGroup(api, { name: "Private Pilot Ground School" });
  const credential = await issue(
    api,
    (await createCredential(api, { groupId: group.id, recipient: { name: "Amelia Earhart", email } })).id,
  );
  const pageUrl = `${server.baseURL}/credentials/${credential.publicId}`;
  const cookie = await signInToWallet(server.baseURL, email);
  const hide = await fetch(`${server.baseURL}/api/wallet/me/credentials/${credential.publicId}`, {
    method: "PATCH",
    headers: { Cookie: cookie, "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress() },
    body: JSON.stringify({ visibility: "private" }),
  });
  expect(hide.status).toBe(200);

  const context = await browser.newContext({ ...DESKTOP, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const page = await context.newPage();
  // Private: nobody else sees the page at all.
  expect((await page.goto(pageUrl))!.status()).toBe(404);

  const [name, value] = cookie.split(/=(.*)/s);
  await context.addCookies([{ name: name!, value: value!, url: server.baseURL }]);
  await page.goto(pageUrl);
  await page.getByTestId("wallet-app-show").click();
  const qr = page.getByTestId("wallet-app-qr");
  await expect(qr).toBeVisible();
  const box = await qr.boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(200);
  expect(box!.x + box!.width).toBeLessThanOrEqual(1440);
  await expect(page.getByTestId("wallet-app-expiry")).toContainText(/\d\d:\d\d/);
  await page.getByTestId("wallet-app-offer").scrollIntoViewIfNeeded();
  await shot(page, testInfo, "wallet-app-offer-private-credential-page-1440.png");

  // The link a wallet app would open: its pre-authorized code is exchanged for an access token.
  const link = (await page.getByTestId("wallet-app-link").getAttribute("href"))!;
  const offer = JSON.parse(new URL(link).searchParams.get("credential_offer")!) as {
    credential_issuer: string;
    grants: Record<string, { "pre-authorized_code": string }>;
  };
  const token = await fetch(`${server.baseURL}${new URL(offer.credential_issuer).pathname}/oid4vci/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": uniqueAddress() },
    body: new URLSearchParams({
      grant_type: PRE_AUTHORIZED_GRANT,
      "pre-authorized_code": offer.grants[PRE_AUTHORIZED_GRANT]!["pre-authorized_code"],
    }),
  });
  expect(token.status).toBe(200);
  expect(((await token.json()) as { token_type: string }).token_type).toBe("Bearer");

  // The /wallet card offers it too.
  await page.goto(`${server.baseURL}/wallet`);
  const card = page.locator(`[data-public-id="${credential.publicId}"]`);
  await card.getByTestId("wallet-app-show").click();
  await expect(card.getByTestId("wallet-app-qr")).toBeVisible();
  await card.getByTestId("wallet-app-offer").scrollIntoViewIfNeeded();
  await shot(page, testInfo, "wallet-app-offer-private-wallet-card-1440.png");
  await context.close();
});
