// The language switch on the wallet page and /verify (docs/wallet.md, Languages), at 390x844 and
// 1440x900: a disclosure listing every language in its own name; with JavaScript a choice switches the
// page in place (no reload; <html lang dir> too) and is remembered; without JavaScript the same links
// do it. A browser asking for Japanese is told plainly that the page is shown in English.
// Screenshots: the switch open, the fallback line, the page switched to Arabic.
import type { Browser, BrowserContext, Page, TestInfo } from "@playwright/test";
import { test, expect } from "../fixtures";
import { issueCredential, uniqueAddress, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

const SIZES = { "390x844": { width: 390, height: 844 }, "1440x900": { width: 1440, height: 900 } } as const;

async function reader(
  browser: Browser,
  options: { locale: string; size: keyof typeof SIZES; javaScript?: boolean },
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: SIZES[options.size],
    locale: options.locale,
    javaScriptEnabled: options.javaScript ?? true,
    extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() },
  });
}

async function open(context: BrowserContext, url: string, hydrated = true): Promise<Page> {
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  if (hydrated) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
  return page;
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
  test(`wallet page at ${size}: Japanese is said to be missing; the switch opens and changes to Arabic in place`, async ({
    api,
    org,
    server,
    browser,
  }, testInfo) => {
    const group = await walletGroup(api, { name: "Data Analysis (Level 2)" });
    const credential = await issueCredential(api, group.id, { name: "Yuki Tanaka" });
    const context = await reader(browser, { locale: "ja-JP", size });
    const page = await open(context, walletUrl(server, credential.publicId));

    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByTestId("language-fallback")).toHaveText("This page is not available in 日本語; it is shown in English.");
    await expect(page.getByTestId("language-fallback")).toBeInViewport();
    await shoot(page, testInfo, `wallet-fallback-ja-${size}`);

    // The switch: a button naming the current language; open, it lists the eight in their own names.
    const switcher = page.getByTestId("language-switch");
    const button = switcher.locator("summary");
    await expect(button).toHaveText("Language: English");
    await button.click();
    const options = switcher.getByRole("link");
    await expect(options).toHaveText([
      "English",
      "Español",
      "Français",
      "Deutsch",
      "Português (Brasil)",
      "العربية",
      "中文（简体）",
      "हिन्दी",
    ]);
    await expect(switcher.getByRole("link", { name: "English" })).toHaveAttribute("aria-current", "true");
    await expect(switcher.getByRole("link", { name: "العربية" })).toBeInViewport();
    await shoot(page, testInfo, `wallet-switch-open-${size}`);

    // Escape closes it (focus back on its button); reopened, Arabic switches in place: no reload.
    await page.keyboard.press("Escape");
    await expect(options.first()).toBeHidden();
    await expect(button).toBeFocused();
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await button.click();
    await switcher.getByRole("link", { name: "العربية" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByTestId("validity")).toHaveText(`التوقيع صالح · أصدرتها ”E2E ${org.slug}“ (الاسم غير موثَّق)`);
    await expect(page.getByTestId("verify-button")).toHaveText("التحقق من هذه الشهادة");
    // A language chosen: nothing more to say about Japanese.
    await expect(page.getByTestId("language-fallback")).toHaveCount(0);
    await expect(button).toHaveText("اللغة: العربية");
    expect(new URL(page.url()).searchParams.get("lang")).toBe("ar");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // The credential's own words stay as written.
    await expect(page.locator("h1")).toHaveText("Data Analysis (Level 2)");
    await button.click();
    await expect(switcher.getByRole("link", { name: "العربية" })).toHaveAttribute("aria-current", "true");
    await shoot(page, testInfo, `wallet-switch-arabic-${size}`);
    // The client parts speak it too: Verify answers in Arabic.
    await page.keyboard.press("Escape");
    await page.getByTestId("verify-button").click();
    await expect(page.getByTestId("verification").locator("h3").first()).toContainText("التنسيق", { timeout: 20_000 });

    // Remembered: the plain link opens in Arabic now.
    const again = await open(context, walletUrl(server, credential.publicId));
    await expect(again.locator("html")).toHaveAttribute("lang", "ar");
    await context.close();
  });
}

test("without JavaScript the switch is a disclosure of links that choose and remember", async ({ api, server, browser }) => {
  const group = await walletGroup(api, { name: "No Script Course" });
  const credential = await issueCredential(api, group.id, { name: "Jo Smith" });
  const context = await reader(browser, { locale: "en-US", size: "390x844", javaScript: false });
  const page = await open(context, walletUrl(server, credential.publicId), false);
  await page.getByTestId("language-switch").locator("summary").click();
  await page.getByTestId("language-switch").getByRole("link", { name: "Deutsch" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByTestId("verify-button")).toHaveText("Diesen Nachweis prüfen");
  const again = await open(context, walletUrl(server, credential.publicId), false);
  await expect(again.locator("html")).toHaveAttribute("lang", "de");
  await context.close();
});

for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
  test(`/verify at ${size}: the switch changes the page and its form in place`, async ({ server, browser }, testInfo) => {
    const context = await reader(browser, { locale: "ja", size });
    const page = await open(context, `http://localhost:${server.port}/verify`);
    await expect(page.getByTestId("language-fallback")).toHaveText("This page is not available in 日本語; it is shown in English.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verify a credential");
    const switcher = page.getByTestId("language-switch");
    await switcher.locator("summary").click();
    await shoot(page, testInfo, `verify-switch-open-${size}`);
    await switcher.getByRole("link", { name: "Español" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verificar una credencial");
    await expect(page.getByTestId("language-fallback")).toHaveCount(0);
    // The form speaks it: an empty submission's message.
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page.locator("p[role=alert]")).toHaveText("Pegue el enlace de la credencial o su JSON, o elija su PDF o su imagen PNG.");
    await shoot(page, testInfo, `verify-spanish-${size}`);
    await context.close();
  });
}
