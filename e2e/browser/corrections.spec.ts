// Name corrections in the browser, on a phone and on a desktop: the recipient, signed in to the wallet,
// asks for a correction on the credential's page; the issuer approves it in the dashboard's
// Corrections queue; the credential's page then shows the new name.
import { randomUUID } from "node:crypto";
import { createTemplate, emailTo, expect, newAccount, shot, signUp, site, test, walletLinkIn } from "../support/dashboard-helpers";
import { signInToWallet } from "../support/wallet-session";

test.describe.configure({ timeout: 240_000 });

for (const [label, viewport] of [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test.describe(`on a ${label}`, () => {
    test.use({ viewport });

    test("the recipient asks for a name correction, the issuer approves it, the page shows the new name", async ({
      page,
      server,
    }, testInfo) => {
      await signUp(page, server, newAccount("Corrections Academy"));
      await createTemplate(page, server, "Safety Course");
      const email = `ada.${randomUUID().slice(0, 8)}@example.com`;
      await page.goto(`${site(server)}/dashboard/credentials`);
      await page.fill("#c-name", "Ada Lovelase");
      await page.fill("#c-email", email);
      await page.getByRole("button", { name: "Issue and send" }).click();
      await expect(page.getByText("Credential created (issued).")).toBeVisible();
      const link = walletLinkIn((await emailTo(server, email)).text)!;
      const publicId = /\/credentials\/([0-9a-f-]+)/.exec(link)![1]!;

      // Signed in to the wallet (its own cookie, beside the dashboard's).
      const cookie = await signInToWallet(server.baseURL, email);
      const [name, value] = cookie.split("=", 2) as [string, string];
      await page.context().addCookies([{ name, value, domain: "localhost", path: "/" }]);

      // From the wallet's card to the form on the credential's page, which opens by itself.
      const credentialPage = `${site(server)}/credentials/${publicId}`;
      await page.goto(`${site(server)}/wallet`);
      const card = page.locator(`[data-public-id="${publicId}"]`);
      await card.getByRole("link", { name: "Request a name correction" }).click();
      await page.waitForURL(`${credentialPage}#name-correction`);
      const form = page.getByTestId("name-correction-form");
      await expect(form).toBeVisible();
      // A clear error first: the same name as now.
      await form.getByLabel("Correct name").fill("Ada Lovelase");
      await form.getByRole("button", { name: "Send request" }).click();
      await expect(form.getByText("different from the name now on the credential")).toBeVisible();
      await form.getByLabel("Correct name").fill("Ada Lovelace");
      await form.getByLabel("Note for the issuer (optional)").fill("The c is missing.");
      await form.scrollIntoViewIfNeeded();
      await shot(page, testInfo, `${label}-1-wallet-form`);
      await form.getByRole("button", { name: "Send request" }).click();
      await expect(page.getByTestId("name-correction-sent")).toContainText("Your request was sent to Corrections Academy");
      await shot(page, testInfo, `${label}-2-wallet-sent`);
      await page.reload();
      await expect(page.getByTestId("name-correction-status")).toHaveText(
        "Name correction to “Ada Lovelace” requested; waiting for the issuer.",
      );
      await expect(page.getByTestId("name-correction-open")).toHaveCount(0);

      // The issuer: a count on the navigation, the queue, approve.
      await page.goto(`${site(server)}/dashboard`);
      await expect(page.getByTestId("open-corrections")).toContainText("1");
      await page.goto(`${site(server)}/dashboard/corrections`);
      const item = page.locator("[data-correction-id]").first();
      await expect(item).toContainText("Safety Course");
      await expect(item).toContainText("Ada Lovelase");
      await expect(item).toContainText("Ada Lovelace");
      await expect(item).toContainText("The c is missing.");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);
      await shot(page, testInfo, `${label}-3-dashboard-queue`);
      await item.getByRole("button", { name: /Approve/ }).click();
      await expect(page.getByTestId("correction-decisions")).toContainText("Safety Course, Ada Lovelase → Ada Lovelace: Approved");
      await expect(page.locator("[data-correction-id]")).toHaveCount(0);
      await expect(page.getByTestId("open-corrections")).toHaveCount(0);
      await shot(page, testInfo, `${label}-4-dashboard-approved`);
      await page.goto(`${site(server)}/dashboard/corrections?status=approved`);
      await expect(page.locator("[data-correction-id]").first()).toContainText("Ada Lovelace");
      await expect(page.getByTestId("open-corrections")).toHaveCount(0);

      // The recipient's page shows the new name, and the request's outcome.
      await page.goto(credentialPage);
      await expect(page.getByText(/Awarded to\s*Ada Lovelace/).first()).toBeVisible();
      await expect(page.getByTestId("name-correction-status")).toHaveText("Name corrected to “Ada Lovelace”.");
      await shot(page, testInfo, `${label}-5-wallet-corrected`);
      await page.goto(`${site(server)}/wallet`);
      await expect(page.locator(`[data-public-id="${publicId}"]`).getByTestId("card-name-correction")).toContainText(
        "Name corrected to “Ada Lovelace”.",
      );
      await shot(page, testInfo, `${label}-6-wallet-list`);
    });
  });
}
