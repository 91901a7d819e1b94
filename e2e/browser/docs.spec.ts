// Browser smoke test: the API reference page renders in Chromium.
import { test, expect } from "../fixtures";

test("/docs renders a heading and links to /v1/openapi.json", async ({ page }) => {
  const response = await page.goto("/docs");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const link = page.locator('a[href="/v1/openapi.json"], a[href$="/v1/openapi.json"]').first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const target = await page.request.get(new URL(href!, page.url()).toString());
  expect(target.status()).toBe(200);
  expect((await target.json()).openapi).toMatch(/^3\.1/);
});
