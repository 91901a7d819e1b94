// The design editor's layer list and images, as an issuer meets them in a starter design: layers named
// by their text or kind (cut with an ellipsis, never wider than the list), an uploaded image placed
// once (its button then selects it rather than stacking a copy on top), and a canvas that uses the
// window's width.
import type { Page } from "@playwright/test";
import { makePng } from "../support/api-helpers";
import { expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1440, height: 900 } });

async function copyOfClassic(page: Page, baseUrl: string, name: string) {
  await page.goto(`${baseUrl}/dashboard/designs`);
  await page.fill("#new-design-name", name);
  await page.selectOption("#new-design-from", { label: "Classic Certificate (certificate)" });
  await page.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
}

test("layers are named by text or kind, with an ellipsis; an upload places one image; the canvas is wide", async ({
  page,
  server,
}, testInfo) => {
  await signUp(page, server, newAccount("Layers Academy"));
  await copyOfClassic(page, site(server), "Layered certificate");
  const layers = page.getByRole("list", { name: "Layers, top last" });
  const stage = page.getByTestId("design-stage");

  // The starter's layers: texts by their words, shapes by their kind; none is a bare "Shape".
  await expect(layers.getByRole("button", { name: "Rectangle" }).first()).toBeVisible();
  await expect(layers.getByRole("button", { name: /^Text: / }).first()).toBeVisible();
  await expect(layers.getByRole("button", { name: "QR code" })).toHaveCount(1);
  await expect(layers.getByRole("button", { name: "Shape", exact: true })).toHaveCount(0);

  // A long text: its layer name is cut, and the button stays inside the list.
  await page.getByRole("button", { name: "Text", exact: true }).click();
  await page.getByLabel("Text", { exact: true }).fill("Certificate of Achievement in Applied Mathematics and Statistics");
  const long = layers.getByRole("button").last();
  await expect(long).toHaveText("Text: Certificate of Achievement in A…");
  await expect(long).toHaveAttribute("title", "Text: Certificate of Achievement in A…");
  const fits = await long.evaluate((button) => {
    const list = button.closest("ol")!.getBoundingClientRect();
    const box = button.getBoundingClientRect();
    return {
      inside: box.right <= list.right + 0.5,
      cut: button.scrollWidth > button.clientWidth,
      ellipsis: getComputedStyle(button).textOverflow,
    };
  });
  expect(fits).toEqual({ inside: true, cut: true, ellipsis: "ellipsis" });

  // The canvas takes the width the panels leave (the dashboard's side bar becomes a top bar here).
  const canvasWidth = (await stage.boundingBox())!.width;
  expect(canvasWidth).toBeGreaterThan(850);

  // Upload: one image, placed and selected. Its button then selects it instead of placing a copy.
  const images = () => layers.getByRole("button", { name: "Image: seal" });
  await page.setInputFiles("#design-image", { name: "Seal.png", mimeType: "image/png", buffer: makePng(120, 120, [202, 138, 4, 255]) });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(images()).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Place seal" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await layers.getByRole("button").first().click();
  await page.getByRole("button", { name: "Select seal on the canvas" }).click();
  await expect(images()).toHaveCount(1);
  await expect(stage.getByRole("button", { name: "Image: seal" })).toHaveAttribute("aria-pressed", "true");
  await shot(page, testInfo, "editor-layers");

  // Taken off the canvas, it can be placed again: once per click.
  await stage.getByRole("button", { name: "Image: seal" }).focus();
  await page.keyboard.press("Delete");
  await expect(images()).toHaveCount(0);
  await page.getByRole("button", { name: "Place seal" }).click();
  await expect(images()).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Select seal on the canvas" })).toBeVisible();
});
