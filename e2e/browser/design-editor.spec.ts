// The design editor in Chromium, used the way an issuer designs a certificate: create a design, drag
// and resize elements on the canvas, type text with attribute placeholders picked from the list,
// upload an image and place it, see mistakes next to the field that caused them (and Save refused),
// watch the server-rendered preview follow, save, and find the new revision through the API.
import type { Locator, Page } from "@playwright/test";
import { makePng } from "../support/api-helpers";
import { apiGet, createToken, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { uniqueAddress } from "../support/wallet-helpers";

type ApiDesign = {
  id: string;
  name: string;
  updatedAt: string;
  previewUrl: string;
  document: { canvas: { orientation: string }; elements: Record<string, unknown>[] };
  assets: { name: string }[];
};

test.describe.configure({ timeout: 120_000 });

async function createDesign(page: Page, server: ServerInfo, name: string): Promise<string> {
  await page.goto(`${site(server)}/dashboard/designs`);
  await page.fill("#new-design-name", name);
  await page.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
  return page.url().split("/").pop()!;
}

/** Drags from the middle of `from` by (dx, dy) screen pixels, in small steps like a hand would. */
async function drag(page: Page, from: Locator, dx: number, dy: number) {
  const box = (await from.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 6 });
  await page.mouse.up();
}

const inspector = (page: Page) => page.getByRole("group", { name: /properties$/ });
const numberIn = async (field: Locator) => Number(await field.inputValue());

test("typing into another field right after picking an attribute stays in that field, however slow the next frame", async ({
  page,
  server,
}) => {
  await signUp(page, server, newAccount("Slow Frame Academy"));
  await createDesign(page, server, "Slow frames");
  await page.getByRole("button", { name: "Text", exact: true }).click();
  const textArea = page.getByLabel("Text", { exact: true });
  await textArea.fill("Hello ");
  // A busy phone: the frame after the pick comes 400 ms late, while the person already types elsewhere.
  await page.evaluate(() => {
    const next = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => next(() => setTimeout(() => callback(performance.now()), 400));
  });
  await page.getByLabel("Insert attribute").selectOption("recipient.name");
  const colour = page.getByLabel("Colour", { exact: true });
  await colour.click();
  await colour.press("ControlOrMeta+a");
  await page.keyboard.type("#336699", { delay: 120 });
  await expect(colour).toHaveValue("#336699");
  await expect(textArea).toHaveValue("Hello [recipient.name]");
  await expect(colour).toBeFocused();
});

test("design a certificate: drag, resize, placeholders, an uploaded image, errors next to fields, save", async ({
  page,
  server,
}, testInfo) => {
  await signUp(page, server, newAccount("Editor Academy"));
  const token = await createToken(page, server, "checks");

  // A design needs a name; the API's message shows next to the field.
  await page.goto(`${site(server)}/dashboard/designs`);
  await page.getByRole("button", { name: "Create and edit" }).click();
  await expect(page.locator("form").getByText("must not be empty")).toBeVisible();

  const id = await createDesign(page, server, "Spring certificate");
  const before = await apiGet<ApiDesign>(server, token, `/v1/designs/${id}`);
  const stage = page.getByTestId("design-stage");
  const picture = stage.getByRole("img");
  // The saved preview shows at once; the draft, rendered with the long sample names, replaces it.
  await expect(picture).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(page.getByRole("button", { name: "Saved" })).toBeDisabled();
  await shot(page, testInfo, "editor-new");

  // Drag the recipient's name: the inspector follows, and the server renders the draft.
  const name = stage.getByRole("button", { name: "Text: [recipient.name]" });
  // Far enough right to reach the canvas's edge at any canvas size.
  await drag(page, name, 120, 40);
  await expect(inspector(page).getByRole("heading", { name: "Text" })).toBeVisible();
  const x = page.getByLabel("X", { exact: true });
  const y = page.getByLabel("Y", { exact: true });
  // 700 points wide from x 71: it stops at the canvas's right edge (842).
  await expect(x).toHaveValue("142");
  expect(await numberIn(y)).toBeGreaterThan(205 + 25);
  await expect(picture).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();
  await expect(page.getByRole("status")).toHaveText("Unsaved changes.");

  // Arrow keys nudge the selection by a point (Shift: ten).
  await name.focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(x).toHaveValue("131");

  // A new text: words, a custom attribute and a built-in one picked from the list.
  await page.getByRole("button", { name: "Text", exact: true }).click();
  const textArea = page.getByLabel("Text", { exact: true });
  await expect(textArea).toHaveValue("New text");
  await textArea.fill("Grade ");
  await page.getByLabel("Custom attribute").fill("my grade");
  await page.getByRole("button", { name: "Insert", exact: true }).click();
  await expect(page.getByText("use 1 to 64 letters, digits, '_' or '-' (no spaces)")).toBeVisible();
  await expect(textArea).toHaveValue("Grade ");
  await page.getByLabel("Custom attribute").fill("grade");
  await page.getByRole("button", { name: "Insert", exact: true }).click();
  await textArea.press("End");
  await textArea.type(", awarded ");
  await page.getByLabel("Insert attribute").selectOption("credential.issueDate");
  await expect(textArea).toHaveValue("Grade [custom.grade], awarded [credential.issueDate]");
  await expect(page.getByRole("list", { name: "Layers, top last" }).getByRole("button").last()).toHaveText(
    /^Text: Grade \[custom.grade\], awarded \[.*…$/,
  );

  // A wrong colour and an unknown placeholder: the server's messages, next to each field.
  const colour = page.getByLabel("Colour", { exact: true });
  await colour.fill("#12");
  await expect(colour).toHaveValue("#12");
  await expect(inspector(page).getByText("must be a hex colour: #rgb, #rrggbb or #rrggbbaa")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Fix these to save" })).toContainText("Text: Grade [custom.grade]");
  await textArea.fill("Grade [custom.grade] [recipient.nmae]");
  await expect(inspector(page).getByText("unknown attribute [recipient.nmae]")).toBeVisible();
  await shot(page, testInfo, "editor-errors");
  // Save refuses the same document, and nothing is written.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Please correct the highlighted fields.");
  expect((await apiGet<ApiDesign>(server, token, `/v1/designs/${id}`)).updatedAt).toBe(before.updatedAt);
  await page.getByLabel("Colour", { exact: true }).fill("#b91c1c");
  await textArea.fill("Grade [custom.grade], awarded [credential.issueDate]");
  await expect(page.getByRole("alert").filter({ hasText: "Fix these to save" })).toHaveCount(0);

  // Images: a file that is not one is refused with the reason; a PNG is uploaded and placed.
  await page.setInputFiles("#design-image", { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("is not a PNG or JPEG image")).toBeVisible();
  await page.setInputFiles("#design-image", {
    name: "Company Logo.png",
    mimeType: "image/png",
    buffer: makePng(300, 100, [29, 78, 216, 255]),
  });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(inspector(page).getByRole("heading", { name: "Image" })).toBeVisible();
  await expect(page.getByLabel("Image", { exact: true })).toHaveValue("company-logo");
  const image = stage.getByRole("button", { name: "Image: company-logo" });
  const width = page.getByLabel("Width", { exact: true });
  const widthBefore = await numberIn(width);
  await drag(page, image.locator("[data-handle=se]"), 50, 20);
  expect(await numberIn(width)).toBeGreaterThan(widthBefore + 30);

  // Delete and undo.
  await image.focus();
  await page.keyboard.press("Delete");
  await expect(image).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(image).toHaveCount(1);

  // Portrait: the layout follows the canvas and stays valid.
  await page.keyboard.press("Escape");
  await page.getByLabel("Orientation").selectOption("portrait");
  await expect(page.getByText("595 × 842 pt.")).toBeVisible();
  await expect(picture).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(page.getByRole("alert").filter({ hasText: "Fix these to save" })).toHaveCount(0);

  // A long sample name: the preview says the text was cut, before any credential is issued.
  const longName = "MAXIMILIANA WOLFESCHLEGELSTEINHAUSENBERGERDORFF ".repeat(4).trim();
  await page.fill("#sample-name", longName);
  await expect(page.getByTestId("overflow-warning").getByRole("listitem").filter({ hasText: "[recipient.name]" })).toHaveText(
    `Text: [recipient.name] overflows with “${longName}”.`,
  );
  await page.fill("#sample-name", "");
  await shot(page, testInfo, "editor-edited");

  // Save: a new revision, a new update time, so a new preview URL.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved. New credentials and previews use this version.");
  await expect(page.getByRole("button", { name: "Saved" })).toBeDisabled();
  const after = await apiGet<ApiDesign>(server, token, `/v1/designs/${id}`);
  expect(after.updatedAt > before.updatedAt).toBe(true);
  expect(after.previewUrl).not.toBe(before.previewUrl);
  expect(after.document.canvas.orientation).toBe("portrait");
  expect(after.assets.map((a) => a.name)).toEqual(["company-logo"]);
  expect(after.document.elements.find((e) => e.type === "image")).toMatchObject({ asset: "company-logo" });
  expect(after.document.elements.find((e) => e.type === "text" && String(e.text).startsWith("Grade"))).toMatchObject({
    text: "Grade [custom.grade], awarded [credential.issueDate]",
  });
  const preview = await fetch(after.previewUrl.replace(/^https?:\/\/[^/]+/, site(server)));
  expect(preview.status).toBe(200);
  expect(preview.headers.get("content-type")).toBe("image/png");

  // The image in use cannot be removed (the API's rule, shown in place).
  await page.getByRole("button", { name: "Remove company-logo" }).click();
  await expect(page.getByText(/Cannot remove: .*company-logo/)).toBeVisible();

  // The gallery shows the new version; a reload shows what was saved.
  await page.goto(`${site(server)}/dashboard/designs`);
  await expect(page.getByRole("img", { name: "Spring certificate with sample values" })).toHaveAttribute("src", after.previewUrl);
  await expect
    .poll(() =>
      page
        .getByRole("img", { name: "Spring certificate with sample values" })
        .evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0),
    )
    .toBe(true);
  await shot(page, testInfo, "designs-gallery");
  await page.getByRole("link", { name: "Spring certificate", exact: true }).click();
  await expect(page.getByRole("list", { name: "Layers, top last" })).toContainText("Image: company-logo");
  await expect(page.getByText("595 × 842 pt.")).toBeVisible();
});

test("start from a copy of a starter design: the copy is edited, the original stays as it was", async ({ page, server }) => {
  await signUp(page, server, newAccount("Copy Academy"));
  const token = await createToken(page, server, "checks");
  const designs = await apiGet<{ data: ApiDesign[] }>(server, token, "/v1/designs");
  const classic = designs.data.find((d) => d.name === "Classic Certificate")!;

  await page.goto(`${site(server)}/dashboard/designs`);
  await page.fill("#new-design-name", "Classic, our colours");
  await page.selectOption("#new-design-from", { label: "Classic Certificate (certificate)" });
  await page.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
  const id = page.url().split("/").pop()!;
  expect(id).not.toBe(classic.id);
  const copy = await apiGet<ApiDesign>(server, token, `/v1/designs/${id}`);
  expect(copy.document).toEqual(classic.document);
  expect(copy.assets).toEqual(classic.assets);
  await expect(page.getByRole("list", { name: "Layers, top last" }).getByRole("button")).toHaveCount(classic.document.elements.length);

  await page.getByLabel("Background colour", { exact: true }).fill("#fef3c7");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved. New credentials and previews use this version.");
  expect(
    (await apiGet<{ document: { background: { color: string } } }>(server, token, `/v1/designs/${id}`)).document.background.color,
  ).toBe("#fef3c7");
  expect(await apiGet<ApiDesign>(server, token, `/v1/designs/${classic.id}`)).toEqual(classic);
});

test("unsaved work is kept in the browser and offered back; a save over someone else's newer one asks first", async ({
  page,
  server,
  browser,
}) => {
  const account = newAccount("Two Tabs Academy");
  await signUp(page, server, account);
  const token = await createToken(page, server, "checks");
  const id = await createDesign(page, server, "Shared design");

  // An edit, then the tab goes away without saving (the session's cookie stays).
  await page.getByLabel("Background colour", { exact: true }).fill("#fde68a");
  await expect(page.getByRole("status")).toHaveText("Unsaved changes.");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.goto(`${site(server)}/dashboard/designs/${id}`);
  await expect(page.getByRole("region", { name: "Unsaved changes from before" })).toContainText("were kept in this browser");
  await expect(page.getByLabel("Background colour", { exact: true })).toHaveValue("#ffffff");
  // Opening the editor again while the offer is up (no answer yet) still finds the kept work.
  await page.reload();
  await expect(page.getByRole("region", { name: "Unsaved changes from before" })).toContainText("were kept in this browser");
  await page.getByRole("button", { name: "Restore them" }).click();
  await expect(page.getByLabel("Background colour", { exact: true })).toHaveValue("#fde68a");
  await expect(page.getByRole("status")).toHaveText("Unsaved changes.");

  // Meanwhile a colleague saves the same design in another browser.
  const other = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() },
    storageState: await page.context().storageState(),
  });
  const pageB = await other.newPage();
  await pageB.goto(`${site(server)}/dashboard/designs/${id}`);
  await pageB.fill("#design-name", "Renamed by a colleague");
  await pageB.getByRole("button", { name: "Save" }).click();
  await expect(pageB.getByRole("status")).toHaveText("Saved. New credentials and previews use this version.");
  await other.close();

  // Saving here is refused, with the choice; nothing of the colleague's is lost until chosen.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toContainText("This design was changed elsewhere");
  expect((await apiGet<ApiDesign>(server, token, `/v1/designs/${id}`)).name).toBe("Renamed by a colleague");
  await page.getByRole("button", { name: "Save mine over it" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved. New credentials and previews use this version.");
  const saved = await apiGet<ApiDesign & { document: { background: { color: string } } }>(server, token, `/v1/designs/${id}`);
  expect(saved.name).toBe("Shared design");
  expect(saved.document.background.color).toBe("#fde68a");
  // Saved: nothing is offered back any more.
  await page.reload();
  await expect(page.getByRole("region", { name: "Unsaved changes from before" })).toHaveCount(0);
});

test("another organization's member can neither open a design nor add images to it", async ({ page, server, browser }) => {
  await signUp(page, server, newAccount("Owner Org"));
  const token = await createToken(page, server, "checks");
  const id = await createDesign(page, server, "Private design");

  const other = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const pageB = await other.newPage();
  await signUp(pageB, server, newAccount("Other Org"));
  expect((await pageB.goto(`${site(server)}/dashboard/designs/${id}`))?.status()).toBe(404);

  // B's own editor, with its upload form forged to carry A's design id.
  await createDesign(pageB, server, "B's design");
  await pageB.locator("input[name=designId]").evaluate((input: HTMLInputElement, target) => (input.value = target), id);
  await pageB.setInputFiles("#design-image", { name: "x.png", mimeType: "image/png", buffer: makePng(10, 10) });
  await pageB.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(pageB.getByText("Design not found.")).toBeVisible();
  await other.close();

  expect((await apiGet<ApiDesign>(server, token, `/v1/designs/${id}`)).assets).toEqual([]);
});

test("the attribute picker lists the organization's custom attributes by name", async ({ page, server }) => {
  await signUp(page, server, newAccount("Picker Academy"));
  const token = await createToken(page, server, "attributes");
  const defined = await fetch(`${server.baseURL}/v1/attributes`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Certifier-Version": "2022-10-26", "Content-Type": "application/json" },
    body: JSON.stringify({ tag: "custom.final_grade", name: "Final grade" }),
  });
  expect(defined.status).toBe(201);
  const id = await createDesign(page, server, "Picker certificate");
  await page.getByTestId("design-stage").getByRole("button", { name: "Text: [recipient.name]" }).click();
  const picker = page.getByLabel("Insert attribute");
  await expect(picker.locator("option", { hasText: "Final grade [custom.final_grade]" })).toHaveCount(1);
  await picker.selectOption("custom.final_grade");
  await expect(inspector(page).getByRole("textbox").first()).toHaveValue(/\[custom\.final_grade\]/);
  expect(id).toMatch(/^dsn_/);
});
