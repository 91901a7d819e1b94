// The designer's arranging tools in Chromium, on a phone and on a desktop: new elements land in free
// space (a second QR code never hides the first), several elements are selected (Shift+click, a
// marquee) and aligned or distributed as one undo step, and a name too long for its box is flagged
// under the canvas and on it, the warning selecting the element it names.
import type { Locator, Page } from "@playwright/test";
import { expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";

test.describe.configure({ timeout: 240_000 });
/** The server renders every draft; on a loaded machine one can take several seconds. */
const RENDERED = { timeout: 60_000 };

async function createDesign(page: Page, server: ServerInfo, name: string) {
  await page.goto(`${site(server)}/dashboard/designs`);
  await page.fill("#new-design-name", name);
  await page.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
}

type Rect = { x: number; y: number; width: number; height: number };
/** A box on the canvas, relative to the canvas's corner (the page may scroll between two reads). */
const boxOf = async (locator: Locator): Promise<Rect> => {
  const [box, stage] = await Promise.all([locator.boundingBox(), locator.page().getByTestId("design-stage").boundingBox()]);
  return { x: box!.x - stage!.x, y: box!.y - stage!.y, width: box!.width, height: box!.height };
};
const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const viewport of [
  { label: "phone", width: 390, height: 844 },
  { label: "desktop", width: 1440, height: 900 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("new QR codes land in free space; three elements distribute and align as one undo step each", async ({
      page,
      server,
    }, testInfo) => {
      await signUp(page, server, newAccount(`Arrange Academy ${viewport.label}`));
      await createDesign(page, server, "Arranged certificate");
      const stage = page.getByTestId("design-stage");
      const layers = page.getByRole("list", { name: "Layers, top last" });

      // Two more QR codes: none covers another (the starter already has one).
      const addQr = page
        .getByRole("complementary", { name: "Elements and layers" })
        .getByRole("button", { name: "QR code", exact: true })
        .first();
      await addQr.click();
      await addQr.click();
      const qrs = stage.getByRole("button", { name: "QR code", exact: true });
      await expect(qrs).toHaveCount(3);
      const qrBoxes = await Promise.all([0, 1, 2].map((i) => boxOf(qrs.nth(i))));
      for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) expect(overlap(qrBoxes[i]!, qrBoxes[j]!), `QR ${i} and ${j}`).toBe(false);
      await shot(page, testInfo, `arrange-qr-${viewport.label}`);

      // Three texts picked with Shift+click in the layer list.
      const title = stage.getByRole("button", { name: "Text: CERTIFICATE OF COMPLETION" });
      const middle = stage.getByRole("button", { name: "Text: This certifies that" });
      const issued = stage.getByRole("button", { name: "Text: Issued [credential.issueDate]" });
      await layers.getByRole("button", { name: "Text: CERTIFICATE OF COMPLETION" }).click();
      await layers.getByRole("button", { name: "Text: This certifies that" }).click({ modifiers: ["Shift"] });
      await layers.getByRole("button", { name: "Text: Issued [credential.issueDate]" }).click({ modifiers: ["Shift"] });
      await expect(page.getByRole("heading", { name: "3 elements selected" })).toBeVisible();
      for (const el of [title, middle, issued]) await expect(el).toHaveAttribute("aria-pressed", "true");

      const before = await boxOf(middle);
      const distribute = page.getByRole("button", { name: "Distribute vertically" });
      await expect(distribute).toBeEnabled();
      await distribute.click();
      const gaps = async () => {
        const [a, b, c] = await Promise.all([title, middle, issued].map(boxOf));
        return [b!.y - (a!.y + a!.height), c!.y - (b!.y + b!.height)];
      };
      await expect.poll(async () => Math.abs((await gaps())[0]! - (await gaps())[1]!)).toBeLessThan(1.5);
      expect((await boxOf(middle)).y).toBeGreaterThan(before.y + 20);
      await shot(page, testInfo, `arrange-distributed-${viewport.label}`);

      // One undo step puts the middle text back; the keyboard does it again (Alt+Shift+V).
      await page.keyboard.press("ControlOrMeta+z");
      await expect.poll(async () => Math.round((await boxOf(middle)).y)).toBe(Math.round(before.y));
      await page.keyboard.press("Alt+Shift+KeyV");
      await expect.poll(async () => Math.abs((await gaps())[0]! - (await gaps())[1]!)).toBeLessThan(1.5);

      // Align left to the selection: the narrow "Issued" line joins the wide texts' left edge.
      await page.getByRole("button", { name: "Align right" }).click();
      const rights = async () => (await Promise.all([title, middle, issued].map(boxOf))).map((b) => Math.round(b.x + b.width));
      await expect.poll(async () => new Set(await rights()).size).toBe(1);
      await page.keyboard.press("ControlOrMeta+z");
      await expect.poll(async () => new Set(await rights()).size).toBe(2);

      // A marquee across the empty top left of the canvas selects what it touches.
      await page.keyboard.press("Escape");
      await stage.scrollIntoViewIfNeeded();
      const area = (await stage.boundingBox())!;
      await page.mouse.move(area.x + 4, area.y + 4);
      await page.mouse.down();
      await page.mouse.move(area.x + area.width * 0.5, area.y + area.height * 0.6, { steps: 8 });
      await page.mouse.up();
      await expect(title).toHaveAttribute("aria-pressed", "true");
      await expect(issued).toHaveAttribute("aria-pressed", "false");
      await expect(page.getByRole("heading", { name: /elements selected$/ })).toBeVisible();
    });

    test("a name too long for its box is flagged under the canvas and on it; the warning selects the element", async ({
      page,
      server,
    }, testInfo) => {
      await signUp(page, server, newAccount(`Overflow Academy ${viewport.label}`));
      await createDesign(page, server, "Overflowing certificate");
      const stage = page.getByTestId("design-stage");
      const name = stage.getByRole("button", { name: "Text: [recipient.name]" });
      // The starter fits the long sample names it is previewed with.
      await expect(stage.getByRole("img")).toHaveAttribute("src", /^data:image\/png;base64,/, RENDERED);
      await expect(page.getByText(/^Shown: Maria Guadalupe/)).toBeVisible(RENDERED);
      await expect(page.getByTestId("overflow-warning")).toHaveCount(0);

      // The name may not shrink below 30 pt: some long sample name no longer fits, and the warning says which.
      await name.click();
      const smallest = page.getByLabel("Smallest size", { exact: true });
      await expect(page.getByRole("checkbox", { name: "Shrink to fit" })).toBeChecked();
      await smallest.fill("30");
      const warning = page.getByTestId("overflow-warning");
      await expect(warning).toContainText("A text does not fit its box", RENDERED);
      await expect(warning.getByRole("listitem")).toContainText("Text: [recipient.name] overflows with “");
      await expect(name).toHaveAttribute("data-overflowing", "true");

      // A name typed to preview with is the one tried; the layer is marked too.
      const longName = "Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinhausenbergerdorff von Hohenberg-Wittelsbach";
      await page.fill("#sample-name", longName);
      await expect(warning.getByRole("listitem")).toHaveText(`Text: [recipient.name] overflows with “${longName}”.`, RENDERED);
      await expect(
        page.getByRole("list", { name: "Layers, top last" }).getByRole("button", { name: "Text: [recipient.name]" }),
      ).toHaveClass(/layerOverflowing/);
      await shot(page, testInfo, `overflow-${viewport.label}`);

      // The warning names the element: clicking it selects it.
      await page.getByRole("button", { name: "Canvas settings" }).click();
      await expect(name).toHaveAttribute("aria-pressed", "false");
      await warning.getByRole("button", { name: "Text: [recipient.name]" }).click();
      await expect(name).toHaveAttribute("aria-pressed", "true");

      // A size the API refuses is named next to its field; a smaller size on two lines fits.
      await smallest.fill("3");
      await expect(
        page.getByRole("group", { name: /properties$/ }).getByText(/expected number to be (?:>=|greater than or equal to )4/),
      ).toBeVisible(RENDERED);
      await smallest.fill("6");
      await page.getByLabel("Lines at most", { exact: true }).fill("2");
      await expect(warning).toHaveCount(0, RENDERED);
      await expect(name).not.toHaveAttribute("data-overflowing", "true");
      await shot(page, testInfo, `overflow-fixed-${viewport.label}`);
    });
  });
}
