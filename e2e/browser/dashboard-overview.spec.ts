// The dashboard's first page for a new organization: what to do next, checked off as it is done
// (whichever way), the latest credentials with their email, and "Issue a credential" first.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTemplate, createToken, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import { execSql } from "../support/databases";

test.describe.configure({ timeout: 120_000 });

const step = (page: Page, title: string) => page.locator("li[data-done]").filter({ hasText: title });

async function expectDone(page: Page, done: Record<string, boolean>) {
  await page.goto(`${page.url().split("/dashboard")[0]}/dashboard`);
  for (const [title, isDone] of Object.entries(done)) await expect(step(page, title), title).toHaveAttribute("data-done", String(isDone));
  const count = Object.values(done).filter(Boolean).length;
  await expect(page.getByTestId("steps-progress")).toHaveText(count === 5 ? "All done: you are set up to issue." : `${count} of 5 done.`);
}

test("getting started: each step checked off once done; recent activity links to the credentials", async ({ page, server }, testInfo) => {
  await signUp(page, server, newAccount("First Steps Academy"));
  // The starter designs are there, but untouched: nothing is done yet.
  await expectDone(page, {
    "Make a design your own": false,
    "Create a credential template": false,
    "Issue your first credential": false,
    "Create an API token": false,
    "Verify your website domain": false,
  });
  await expect(page.getByText("No credentials yet.")).toBeVisible();
  // The developer part is below the first steps and the activity.
  const stepsBox = (await page.getByRole("heading", { name: "Getting started" }).boundingBox())!;
  const devBox = (await page.getByRole("heading", { name: "For developers" }).boundingBox())!;
  expect(devBox.y).toBeGreaterThan(stepsBox.y);
  await expect(page.locator("pre")).toContainText("/v1/groups");
  await shot(page, testInfo, "overview-new");

  // The next step's own button leads to it.
  await step(page, "Make a design your own").getByRole("link", { name: "Open designs" }).click();
  await expect(page).toHaveURL(/\/dashboard\/designs$/);

  await createTemplate(page, server, "Robotics");
  await expectDone(page, {
    "Make a design your own": false,
    "Create a credential template": true,
    "Issue your first credential": false,
    "Create an API token": false,
    "Verify your website domain": false,
  });

  await createToken(page, server, "LMS");
  await expectDone(page, {
    "Make a design your own": false,
    "Create a credential template": true,
    "Issue your first credential": false,
    "Create an API token": true,
    "Verify your website domain": false,
  });

  // "Issue a credential", the page's main button, opens the new-credential form.
  await page.getByRole("link", { name: "Issue a credential" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/credentials#new-credential$/);
  await page.fill("#c-name", "Margaret Hamilton");
  await page.getByRole("button", { name: "Issue and send" }).click();
  await expect(page.getByText("Credential created (issued).")).toBeVisible();
  await expectDone(page, {
    "Make a design your own": false,
    "Create a credential template": true,
    "Issue your first credential": true,
    "Create an API token": true,
    "Verify your website domain": false,
  });

  // A copy of a starter design is a design of one's own.
  await page.goto(`${site(server)}/dashboard/designs`);
  await page.fill("#new-design-name", "Robotics certificate");
  await page.selectOption("#new-design-from", { label: "Classic Certificate (certificate)" });
  await page.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
  await expectDone(page, {
    "Make a design your own": true,
    "Create a credential template": true,
    "Issue your first credential": true,
    "Create an API token": true,
    "Verify your website domain": false,
  });

  // Not "All done" while every credential says "issuer identity not verified": the domain is the last
  // step, and its button leads to the settings where it is claimed.
  await expect(page.getByTestId("steps-progress")).toHaveText("4 of 5 done.");
  await shot(page, testInfo, "overview-domain-step");
  await step(page, "Verify your website domain").getByRole("link", { name: "Verify your domain" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings#domain-heading$/);
  const domain = `first-steps-${randomBytes(4).toString("hex")}.example`;
  const section = page.getByRole("region", { name: "Website domain" });
  await section.getByLabel("Your website’s domain").fill(domain);
  await section.getByRole("button", { name: "Claim domain" }).click();
  await expect(section.getByTestId("domain-proof-line")).toBeVisible();
  await expect(section.getByTestId("did-configuration")).toHaveCount(0);
  // The check itself (file or DNS) is verified-domain.spec.ts's; here the claim is marked verified directly.
  const now = new Date().toISOString();
  await execSql(
    server.databaseUrl,
    `UPDATE "DomainClaim" SET "verifiedDomain" = '${domain}', "verifiedAt" = '${now}' WHERE "domain" = '${domain}'`,
  );
  await page.reload();
  const didConfiguration = section.getByTestId("did-configuration");
  await expect(didConfiguration).toContainText(`https://${domain}/.well-known/did-configuration.json`);
  const download = didConfiguration.getByRole("link", { name: "Download did-configuration.json" });
  await expect(download).toHaveAttribute("download", "did-configuration.json");
  const file = await page.request.get((await download.getAttribute("href"))!);
  expect(file.status()).toBe(200);
  expect(
    ((await file.json()) as { linked_dids: { credentialSubject: { origin: string } }[] }).linked_dids[0]!.credentialSubject.origin,
  ).toBe(`https://${domain}`);
  await didConfiguration.scrollIntoViewIfNeeded();
  await shot(page, testInfo, "settings-did-configuration");
  await expectDone(page, {
    "Make a design your own": true,
    "Create a credential template": true,
    "Issue your first credential": true,
    "Create an API token": true,
    "Verify your website domain": true,
  });

  const activity = page.getByRole("list", { name: "Latest credentials" });
  await expect(activity.getByRole("listitem")).toHaveCount(1);
  await expect(activity).toContainText("Robotics");
  await expect(activity).toContainText("email not sent");
  await shot(page, testInfo, "overview-done");
  await activity.getByRole("link", { name: "Margaret Hamilton" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Margaret Hamilton");
});
