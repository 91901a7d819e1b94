// The template form's email editor (docs/dashboard.md, "The email editor") at phone and desktop size:
// a placeholder picked from the list lands at the cursor, the preview is the real email (branded frame,
// certificate image, the issuer's formatted text) at desktop and phone width, a refused link is named
// next to the field and nothing is saved, and "Send a test to me" emails the signed-in user through the
// outbox, rate-limited. Screenshots of the page and of the rendered email itself are attached.
import { createTemplate, emailTo, expect, newAccount, shot, signUp, test } from "../support/dashboard-helpers";

test.describe.configure({ timeout: 150_000 });

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const;

for (const viewport of VIEWPORTS) {
  test(`the email editor at ${viewport.width}x${viewport.height}: picker, live preview, refused link, test send`, async ({
    page,
    browser,
    server,
  }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const account = newAccount("Northwind Academy");
    await signUp(page, server, account);
    await createTemplate(page, server, "Safety Training", ["Modern Certificate"]);
    await page.reload();
    await page.getByRole("link", { name: "Safety Training" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Safety Training");

    // The placeholder picker inserts at the cursor of the field typed in last.
    await page.fill("#tpl-subject", "Well done, ");
    await page.locator("#tpl-subject").press("End");
    await page.selectOption("#tpl-placeholder", "recipient.name");
    await expect(page.locator("#tpl-subject")).toHaveValue("Well done, [recipient.name]");
    await page.fill(
      "#tpl-text",
      "Dear ****, <script>alert(1)</script>\n\nRead [the syllabus](https://example.edu/syllabus) before your next course.",
    );
    await page.locator("#tpl-text").evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(7, 7));
    await page.selectOption("#tpl-placeholder", "recipient.name");
    await expect(page.locator("#tpl-text")).toHaveValue(
      "Dear **[recipient.name]**, <script>alert(1)</script>\n\nRead [the syllabus](https://example.edu/syllabus) before your next course.",
    );

    // The live preview: the real email with sample values, in the branded frame.
    await expect(page.getByTestId("email-subject")).toHaveText("Well done, Alex Morgan");
    const preview = page.frameLocator("iframe[title^='Email preview']");
    await expect(preview.locator("strong", { hasText: "Alex Morgan" })).toBeVisible();
    await expect(preview.getByText("<script>alert(1)</script>", { exact: false })).toBeVisible();
    await expect(preview.getByRole("link", { name: "the syllabus" })).toHaveAttribute("href", "https://example.edu/syllabus");
    await expect(preview.getByRole("link", { name: "View your credential" })).toBeVisible();
    const certificate = preview.locator("img[src*='/previews/']");
    await expect(certificate).toHaveCount(1);
    await page.getByRole("button", { name: "Phone" }).click();
    await expect(page.locator("iframe[title^='Email preview']")).toHaveAttribute("data-width", "phone");
    await page.getByTestId("email-preview").scrollIntoViewIfNeeded();
    await shot(page, testInfo, `editor-${viewport.name}`);

    // The rendered email itself, at phone width, from the preview's own HTML.
    const html = await page.locator("iframe[title^='Email preview']").getAttribute("srcdoc");
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.setContent(html!, { waitUntil: "load" });
    await expect
      .poll(() => phone.locator("img[src*='/previews/']").evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, testInfo, `email-${viewport.name}-390`);
    await phone.close();

    // A javascript: link is named next to the field, live and on save, and nothing is saved.
    await page.fill("#tpl-text", "Hello\n\n[click](javascript:alert`1`)");
    await expect(page.locator("#tpl-text-error")).toContainText('line 3: the link address "javascript:alert`1`" is refused');
    await page.getByRole("button", { name: "Save template" }).click();
    await expect(page.getByText("Please correct the highlighted fields.")).toBeVisible();
    await expect(page.locator("#tpl-text")).toHaveAttribute("aria-invalid", "true");
    await page.reload();
    await expect(page.locator("#tpl-text")).toHaveValue("");

    // Saved, then sent to me as a test: the same email, through the outbox, with where it went.
    await page.fill("#tpl-subject", "Well done, [recipient.name]");
    await page.fill("#tpl-text", "Dear **[recipient.name]**,\n\nRead [the syllabus](https://example.edu/syllabus).");
    await page.getByRole("button", { name: "Save template" }).click();
    await expect(page.getByText("Template “Safety Training” saved.")).toBeVisible();
    await page.getByRole("button", { name: `Send a test to me (${account.email})` }).click();
    await expect(page.getByRole("status").filter({ hasText: `Test email sent to ${account.email}` })).toBeVisible();
    const mail = await emailTo(server, account.email);
    expect(mail.subject).toBe("[Test] Well done, Alex Morgan");
    expect(mail.html).toContain("Dear <strong><bdi>Alex Morgan</bdi></strong>,");
    expect(mail.html).toContain(">View your credential</a>");
    expect(mail.text).toContain("Read the syllabus (https://example.edu/syllabus).");

    if (viewport.name === "desktop") {
      // Rate-limited: five in a row, then the sixth is refused with when to try again.
      for (let i = 0; i < 4; i++) {
        await page.getByRole("button", { name: /Send a test to me/ }).click();
        await expect(page.getByRole("button", { name: /Send a test to me/ })).toBeEnabled();
      }
      await page.getByRole("button", { name: /Send a test to me/ }).click();
      await expect(page.getByRole("alert").filter({ hasText: /Too many test emails; try again in \d+ s\./ })).toBeVisible();
    }
  });
}
