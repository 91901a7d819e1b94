// The dashboard on a 390 × 844 phone: every page, reached from the navigation (so a page added to it
// later is checked too) and every kind of detail page, fits the screen's width (wide tables scroll
// inside their own box), and the navigation stays reachable.
import type { Page } from "@playwright/test";
import { makePng } from "../support/api-helpers";
import { createTemplate, expect, newAccount, signUp, site, test } from "../support/dashboard-helpers";

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 390, height: 844 } });

const PHONE_WIDTH = 390;

async function expectNoSidewaysScroll(page: Page, what: string) {
  await page.waitForLoadState("load");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what} is ${width} px wide on a ${PHONE_WIDTH} px screen`).toBeLessThanOrEqual(PHONE_WIDTH);
}

test("every dashboard page fits a 390 px phone", async ({ page, server }) => {
  await signUp(page, server, newAccount("Phone Academy With A Rather Long Organization Name"));
  await createTemplate(page, server, "Mobile Course");
  await page.goto(`${site(server)}/dashboard/credentials`);
  await page.fill("#c-name", "Katherine Johnson");
  await page.fill("#c-email", `katherine.${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Issue and send" }).click();
  await expect(page.getByText("Credential created (issued).")).toBeVisible();

  // Every page the navigation offers, found the way a person finds them.
  await page.goto(`${site(server)}/dashboard`);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Overview" })).toBeVisible();
  const hrefs = await nav.locator("a[href^='/dashboard']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  expect(hrefs.length).toBeGreaterThanOrEqual(7);
  for (const href of hrefs) {
    await page.goto(`${site(server)}${href}`);
    await expectNoSidewaysScroll(page, href);
    // The current page's link is on screen in the scrolling bar.
    await expect(nav.locator("a[aria-current=page]")).toBeInViewport();
  }

  // Detail pages: a credential (with its edit form open), a template, the design editor, the CSV import.
  await page.goto(`${site(server)}/dashboard/credentials`);
  await page.getByRole("link", { name: "Katherine Johnson" }).click();
  await page.waitForURL(/\/dashboard\/credentials\/cred_/);
  await expectNoSidewaysScroll(page, "a credential's page");
  await page.getByRole("button", { name: "Edit details" }).click();
  await expect(page.getByTestId("edit-form")).toBeVisible();
  await expectNoSidewaysScroll(page, "a credential's edit form");

  await page.goto(`${site(server)}/dashboard/templates`);
  await page.getByRole("link", { name: "Mobile Course" }).first().click();
  await page.waitForURL(/\/dashboard\/templates\/grp_/);
  await expectNoSidewaysScroll(page, "a template's page");

  await page.goto(`${site(server)}/dashboard/designs`);
  await page.getByRole("link", { name: "Classic Certificate", exact: true }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_/);
  await expect(page.getByTestId("design-stage")).toBeVisible();
  await expectNoSidewaysScroll(page, "the design editor");
  await page.setInputFiles("#design-image", { name: "seal.png", mimeType: "image/png", buffer: makePng(80, 80) });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByRole("button", { name: "Select seal on the canvas" })).toBeVisible();
  await expectNoSidewaysScroll(page, "the design editor with an image");

  await page.goto(`${site(server)}/dashboard/credentials/import`);
  await page.selectOption("#import-template", { label: "Mobile Course" });
  const csv = ["Name,Email,Note"]
    .concat(
      Array.from(
        { length: 3 },
        (_, i) => `Person ${i} with a long name for a phone,person.${i}.${Date.now()}@example.com,${"note ".repeat(20)}`,
      ),
    )
    .join("\n");
  await page.setInputFiles("#import-file", { name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload and map columns" }).click();
  await page.waitForURL(/\/dashboard\/credentials\/import\/imp_[0-9a-z]+$/);
  await expect(page.getByRole("table", { name: "The file's first rows" })).toBeVisible();
  await expectNoSidewaysScroll(page, "an import's mapping page");
});
