// The /verify page in Chromium (docs/api.md, Verify): paste a credential's URL or its JSON, or
// choose or drop its baked PNG, and see the verdict (focused, scrolled into view) and each check; a
// tampered document says it was changed; and the page works on a phone-sized screen.
import type { APIRequestContext, Page } from "@playwright/test";
import { expectStatus } from "../support/api-helpers";
import { expect, shot, test } from "../support/dashboard-helpers";
import { credentialPreviews, expiredCredential, issueCredential, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

async function verifyText(page: Page, text: string) {
  await page.getByLabel("Credential link or JSON").fill(text);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

const verdict = (page: Page) => page.getByTestId("verification-result");

async function expectInView(page: Page) {
  await expect(verdict(page)).toBeFocused();
  await expect(verdict(page)).toBeInViewport();
}

async function pngOf(api: APIRequestContext, publicId: string, designId: string): Promise<Buffer> {
  const res = await api.get(`/credentials/${publicId}/badge.png?design=${designId}`);
  expect(res.status()).toBe(200);
  return res.body();
}

test("paste a URL, paste JSON, choose and drop the baked PNG: valid; tampered JSON: changed after signing", async ({
  page,
  api,
  org,
  server,
}, testInfo) => {
  const group = await walletGroup(api, { name: "Data Science Certificate" });
  const credential = await issueCredential(api, group.id, { name: "Ada Lovelace" });
  const url = walletUrl(server, credential.publicId);
  const json = await (await api.get(`/credentials/${credential.publicId}/credential.json`)).text();
  const png = await pngOf(api, credential.publicId, group.designIds[0]!);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/verify");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verify a credential");

  await verifyText(page, url);
  // The verdict names who signed; an issuer without a verified domain is said to be one.
  await expect(verdict(page)).toHaveText(`Signature valid · issued by “E2E ${org.slug}” (name not verified)`);
  await expectInView(page);
  const checks = page.locator("[data-check]");
  await expect(checks).toHaveCount(5);
  for (const [id, outcome] of [
    ["format", "passed"],
    ["signature", "passed"],
    ["issuer", "warning"],
    ["status", "passed"],
    ["validity", "passed"],
  ]) {
    await expect(page.locator(`[data-check="${id}"]`)).toHaveAttribute("data-outcome", outcome!);
  }
  await expect(page.locator('[data-check="issuer"]')).toContainText("identity is not verified");
  await shot(page, testInfo, "verify-valid-1440");

  await verifyText(page, json);
  await expect(page.getByTestId("verification")).toHaveAttribute("data-verdict", "valid");

  const tampered = JSON.parse(json);
  tampered.credentialSubject.name = "Mallory";
  await verifyText(page, JSON.stringify(tampered, null, 2));
  await expect(verdict(page)).toHaveText("Not valid: the document was changed after it was signed.");
  await expectInView(page);
  await expect(page.locator('[data-check="signature"]')).toHaveAttribute("data-outcome", "failed");
  await shot(page, testInfo, "verify-tampered-1440");

  // Choose the PNG with the file picker.
  await page
    .getByLabel("Choose the credential's PDF or PNG image")
    .setInputFiles({ name: "badge.png", mimeType: "image/png", buffer: png });
  await expect(page.getByTestId("verification")).toHaveAttribute("data-verdict", "valid");
  await expectInView(page);

  // Drop it: a DataTransfer made in the page carries the same bytes.
  await verifyText(page, JSON.stringify(tampered));
  await expect(page.getByTestId("verification")).toHaveAttribute("data-verdict", "invalid");
  const dataTransfer = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], "badge.png", { type: "image/png" }));
      return transfer;
    },
    [...png],
  );
  await page.getByTestId("drop-zone").dispatchEvent("drop", { dataTransfer });
  await expect(page.getByTestId("verification")).toHaveAttribute("data-verdict", "valid");

  // A PNG without a credential: plainly could not be verified.
  const plain = await (await api.get(new URL((await credentialPreviews(api, credential.id))[0]!.png).pathname)).body();
  await page
    .getByLabel("Choose the credential's PDF or PNG image")
    .setInputFiles({ name: "plain.png", mimeType: "image/png", buffer: plain });
  await expect(verdict(page)).toContainText("Could not be verified: The PNG image carries no baked credential");

  // Nothing typed: a message, no request.
  await page.getByLabel("Credential link or JSON").fill("");
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Paste" })).toHaveText(
    "Paste the credential’s link or its JSON, or choose its PNG image.",
  );
  await expect(page.getByTestId("verification")).toHaveCount(0);
});

test("at 390×844: expired and revoked credentials, readable without horizontal scrolling", async ({ page, api, server }, testInfo) => {
  const group = await walletGroup(api, { name: "Safety Training" });
  const expired = await expiredCredential(api, group.id, { name: "Barbara Liskov" });
  const revoked = await issueCredential(api, group.id, { name: "Grace Hopper" });
  await expectStatus(await api.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: "Issued to the wrong person" } }), 200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/verify");
  await verifyText(page, walletUrl(server, expired.publicId));
  await expect(verdict(page)).toHaveText(/^Expired on June 30, 2021: /);
  await expectInView(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, testInfo, "verify-expired-390");

  await verifyText(page, walletUrl(server, revoked.publicId));
  await expect(verdict(page)).toHaveText(/^Revoked on \w+ \d+, \d{4}: Issued to the wrong person$/);
  await expectInView(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, testInfo, "verify-revoked-390");

  // The wallet's own button gives the same report, focused and in view, at this size too.
  await page.goto(walletUrl(server, revoked.publicId));
  await page.getByRole("button", { name: "Verify this credential" }).click();
  await expect(verdict(page)).toHaveText(/^Revoked on \w+ \d+, \d{4}: Issued to the wrong person$/);
  await expectInView(page);
  await shot(page, testInfo, "wallet-revoked-verify-390");
});
