// The dashboard's Webhooks page in Chromium: add an endpoint (errors next to the fields, the secret shown
// once), see its deliveries with their result, retry one, disable and enable, rotate the secret, delete.
// The project's server refuses private targets, so the endpoint is a public address this machine cannot
// reach: its attempts fail, which is what the delivery log is for.
import { createTemplate, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";

test.describe.configure({ timeout: 120_000 });

const UNREACHABLE = "https://93.184.215.14/hooks/credentials"; // a public address; tests run without a route to it

test("webhooks: add with the secret shown once, see failed deliveries, retry, disable, rotate, delete", async ({
  page,
  server,
}, testInfo) => {
  await signUp(page, server, newAccount("Webhook Academy"));
  await page.goto(`${site(server)}/dashboard`);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();

  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.locator("#webhook-url-error")).toHaveText("URL must not be empty");
  await expect(page.locator("#webhook-events-error")).toHaveText("Events must name at least one event");
  await page.fill("#webhook-url", "https://10.0.0.7/hooks");
  await page.getByLabel("group.created").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.locator("#webhook-url-error")).toHaveText("URL 10.0.0.7 is a private address, not a public one");
  await expect(page.getByText("No endpoints yet.")).toBeVisible();

  await page.fill("#webhook-url", UNREACHABLE);
  await page.fill("#webhook-description", "LMS sync");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = page.getByTestId("webhook-secret");
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const first = (await secret.textContent())!;
  await shot(page, testInfo, "webhook-added");
  await page.reload();
  await expect(page.getByText(first)).toHaveCount(0);
  const section = page.locator("section", { hasText: UNREACHABLE });
  await expect(section).toContainText("enabled");
  await expect(section).toContainText("Events: group.created");
  await expect(section).toContainText("LMS sync");

  // A template is a group: its group.created event is sent, and fails.
  await createTemplate(page, server, "Webhook Course");
  await expect(async () => {
    await page.goto(`${site(server)}/dashboard/webhooks`);
    await expect(page.locator("section", { hasText: UNREACHABLE }).locator("tbody tr").first()).toContainText("group.created", {
      timeout: 1000,
    });
  }).toPass({ timeout: 40_000 });
  const row = page.locator("section", { hasText: UNREACHABLE }).locator("tbody tr").first();
  await expect(row).toContainText("failed");
  await shot(page, testInfo, "webhook-deliveries");
  await row.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText("Queued; refresh to see the attempt.")).toBeVisible();

  await section.getByRole("button", { name: "Disable" }).click();
  await expect(section).toContainText("disabled");
  await expect(section.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await section.getByRole("button", { name: "Enable" }).click();
  await expect(section).toContainText("enabled");

  page.once("dialog", (dialog) => void dialog.accept());
  await section.getByRole("button", { name: "Rotate secret" }).click();
  await expect(section.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  expect(await section.getByTestId("webhook-secret").textContent()).not.toBe(first);

  page.once("dialog", (dialog) => void dialog.accept());
  await section.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();
});

test("/docs shows how to verify a webhook signature in Node", async ({ page }) => {
  await page.goto("/docs#verify-webhook-signature");
  await expect(page.getByRole("heading", { name: "Verify a signature in Node" })).toBeVisible();
  await expect(page.locator("#verify-webhook-signature pre")).toContainText("new Webhook(process.env.WEBHOOK_SECRET)");
});
