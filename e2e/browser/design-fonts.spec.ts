// The designer's font picker and starter designs, at desktop and phone width: a new organization
// starts with every starter; the picker lists the families grouped by kind, each name drawn in its
// own face (served by the app, never a CDN), and choosing one re-renders the preview and saves.
import type { Page } from "@playwright/test";
import { expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";

test.describe.configure({ timeout: 150_000 });

const KINDS = { "Sans serif": 4, Serif: 4, Script: 3, Monospace: 1, Display: 3 };
const STARTERS = [
  "Classic Certificate",
  "Modern Certificate",
  "Achievement Badge",
  "Elegant Certificate",
  "Portrait Certificate",
  "Bold Certificate",
  "Course Certificate",
  "Shield Badge",
  "Hexagon Badge",
  "Ribbon Badge",
  "Square Badge",
];

async function openStarter(page: Page, baseUrl: string, name: string) {
  await page.goto(`${baseUrl}/dashboard/designs`);
  for (const starter of STARTERS) await expect(page.getByRole("link", { name: starter, exact: true })).toBeVisible();
  await page.getByRole("link", { name, exact: true }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
}

for (const [label, viewport] of [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`${label}: the font picker groups the families by kind, each in its own face, and a choice is saved`, async ({
    page,
    server,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const fontRequests: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "font") fontRequests.push(request.url());
    });
    await signUp(page, server, newAccount(`Fonts ${label}`));
    await openStarter(page, site(server), "Elegant Certificate");
    await shot(page, testInfo, `starter-elegant-${label}`);

    const stage = page.getByTestId("design-stage");
    await stage.getByRole("button", { name: "Text: [recipient.name]" }).click();
    const picker = page.getByRole("group", { name: "Font" });
    await expect(picker.locator("summary")).toContainText("Pinyon Script");
    await picker.locator("summary").click();
    for (const [kind, count] of Object.entries(KINDS)) {
      await expect(picker.getByRole("group", { name: kind, exact: true }).getByRole("radio")).toHaveCount(count);
    }
    await expect(picker.getByRole("radio", { name: "Pinyon Script" })).toBeChecked();

    // Each name in its own face: the web font is loaded and is what the label uses.
    const faces = await picker.locator("label span").evaluateAll(async (spans) => {
      await document.fonts.ready;
      return spans.map((s) => ({ text: s.textContent, family: getComputedStyle(s).fontFamily }));
    });
    expect(new Set(faces.map((f) => f.family)).size).toBe(15);
    await expect
      .poll(() => page.evaluate(() => [...document.fonts].filter((f) => f.status === "loaded").length))
      .toBeGreaterThanOrEqual(15);
    await picker.scrollIntoViewIfNeeded();
    await shot(page, testInfo, `font-picker-${label}`);
    expect(fontRequests.length).toBeGreaterThan(0);
    for (const url of fontRequests) expect(new URL(url).origin).toBe(new URL(site(server)).origin);

    // Choosing a family re-renders the preview and saves it.
    const picture = stage.getByRole("img");
    const before = await picture.getAttribute("src");
    await picker.getByText("Dancing Script", { exact: true }).click();
    await expect(picker.locator("summary")).toContainText("Dancing Script");
    await expect(picture).not.toHaveAttribute("src", before ?? "");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("button", { name: "Saved" })).toBeDisabled();
    await page.reload();
    await stage.getByRole("button", { name: "Text: [recipient.name]" }).click();
    await expect(page.getByRole("group", { name: "Font" }).locator("summary")).toContainText("Dancing Script");
  });
}

test("the starter badges render as pictures in the design list", async ({ page, server }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, server, newAccount("Starter Gallery"));
  for (const name of ["Shield Badge", "Hexagon Badge", "Portrait Certificate"]) {
    await openStarter(page, site(server), name);
    const picture = page.getByTestId("design-stage").getByRole("img");
    await expect(picture).toBeVisible();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await shot(page, testInfo, `starter-${name.toLowerCase().replace(/ /g, "-")}`);
  }
});
