// The wallet page in its reader's language (issue 19 item 5): the browser's Accept-Language picks one of
// the eight languages unless the credential's group fixes one; an unknown language is English. Arabic
// is right to left (<html lang="ar" dir="rtl">, the layout mirrored). Names stay text in every language,
// in the page and in its sharing metadata. The dashboard stays English whatever the browser asks for.
//
// Each context sends a client address of its own (the wallet endpoints are rate-limited per address).
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectStatus } from "../support/api-helpers";
import { issueCredential, isoDate, uniqueAddress, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

async function reader(
  browser: Browser,
  options: { acceptLanguage?: string; locale?: string; viewport?: { width: number; height: number } },
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: options.viewport ?? PHONE,
    ...(options.locale ? { locale: options.locale } : {}),
    extraHTTPHeaders: {
      "X-Forwarded-For": uniqueAddress(),
      ...(options.acceptLanguage ? { "Accept-Language": options.acceptLanguage } : {}),
    },
  });
}

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  await page
    .locator("html[data-hydrated]")
    .waitFor({ state: "attached", timeout: 15_000 })
    .catch(() => undefined);
  return page;
}

const longDate = (locale: string, iso: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

test("Arabic browser: the page in Arabic, right to left, names as text; verify answers in Arabic (screenshot at 390x844)", async ({
  api,
  org,
  server,
  browser,
}, testInfo) => {
  const orgName = `E2E ${org.slug}`;
  const group = await walletGroup(api, { name: `<b>Data</b> Analysis (Level 2)` });
  const credential = await issueCredential(api, group.id, { name: `Layla "<img src=x onerror=alert(1)>" Haddad` });
  const context = await reader(browser, { locale: "ar" });
  const page = await open(context, walletUrl(server, credential.publicId));

  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByTestId("validity")).toHaveText(`التوقيع صالح · أصدرتها ”${orgName}“ (الاسم غير موثَّق)`);
  await expect(page.locator("h1")).toHaveText(`<b>Data</b> Analysis (Level 2)`);
  await expect(page.getByText(`مُنحت إلى Layla "<img src=x onerror=alert(1)>" Haddad`)).toBeVisible();
  await expect(page.locator("img[src='x']")).toHaveCount(0);
  await expect(page.getByTestId("verify-button")).toHaveText("التحقق من هذه الشهادة");
  await expect(page.getByRole("term").filter({ hasText: "تاريخ الإصدار" })).toBeVisible();
  await expect(page.locator("time").first()).toHaveText(longDate("ar", credential.issueDate));
  // The document's title and description in Arabic too, the names as text.
  expect(await page.title()).toBe(`<b>Data</b> Analysis (Level 2): Layla "<img src=x onerror=alert(1)>" Haddad · Credentials`);
  await expect(page.locator("meta[name='description']")).toHaveAttribute(
    "content",
    `حصل Layla "<img src=x onerror=alert(1)>" Haddad على «<b>Data</b> Analysis (Level 2)» من ${orgName}.`,
  );
  // Link previews speak the credential's language (its group fixes none: English), whoever opens the link.
  await expect(page.locator("meta[property='og:locale']")).toHaveAttribute("content", "en");
  // Right to left: the text starts at the right edge, the issuer's name sits on the right.
  const title = page.locator("h1");
  expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
  const issuer = await page.locator("header").getByText(orgName, { exact: true }).first().boundingBox();
  expect(issuer!.x + issuer!.width).toBeGreaterThan(PHONE.width - 80);

  const screenshot = testInfo.outputPath("wallet-ar-390x844.png");
  await page.screenshot({ path: screenshot });
  await testInfo.attach("wallet in Arabic at 390x844", { path: screenshot, contentType: "image/png" });

  await page.getByTestId("verify-button").click();
  const verdict = page.getByTestId("verification-result");
  await expect(verdict).toHaveText(`التوقيع صالح · أصدرتها ”${orgName}“ (الاسم غير موثَّق)`, { timeout: 20_000 });
  await expect(page.getByTestId("verification").locator("h3").first()).toContainText("التنسيق");
  const verified = testInfo.outputPath("wallet-ar-verified-390x844.png");
  await page.screenshot({ path: verified, fullPage: true });
  await testInfo.attach("wallet in Arabic, verified", { path: verified, contentType: "image/png" });
  await context.close();
});

test("Arabic at desktop size: the two columns swap sides (the layout mirrors)", async ({ api, server, browser }) => {
  const group = await walletGroup(api, { name: "Mirrored Course" });
  const credential = await issueCredential(api, group.id, { name: "Omar Khalil" });
  const sides: Record<string, { summary: number; images: number }> = {};
  for (const locale of ["ar", "en-US"]) {
    const context = await reader(browser, { locale, viewport: DESKTOP });
    const page = await open(context, walletUrl(server, credential.publicId));
    const summary = await page.locator("section[aria-labelledby='credential-title']").boundingBox();
    const images = await page.locator("figure").first().boundingBox();
    sides[locale] = { summary: summary!.x, images: images!.x };
    await context.close();
  }
  expect(sides["en-US"]!.images).toBeLessThan(sides["en-US"]!.summary);
  expect(sides.ar!.images).toBeGreaterThan(sides.ar!.summary);
});

test("a group fixed to German overrides an English browser; its dates in German", async ({ api, org, server, browser }) => {
  const design = await createDesign(api, "certificate");
  const group = await createGroup(api, { designIds: [design.id], name: "Datenanalyse", language: "de" });
  expect(group.language).toBe("de");
  const expiry = isoDate(400);
  const credential = await issueCredential(api, group.id, { name: "Erika Mustermann" }, { expiryDate: expiry });
  const context = await reader(browser, { locale: "en-US", acceptLanguage: "en-US,en;q=0.9" });
  const page = await open(context, walletUrl(server, credential.publicId));
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await expect(page.getByTestId("validity")).toHaveText(`Signatur gültig · ausgestellt von „E2E ${org.slug}“ (Name nicht verifiziert)`);
  await expect(page.getByTestId("verify-button")).toHaveText("Diesen Nachweis prüfen");
  await expect(page.getByText("Verliehen an Erika Mustermann")).toBeVisible();
  await expect(page.getByText(longDate("de", expiry), { exact: true })).toBeVisible();
  expect(await page.title()).toBe("Datenanalyse: Erika Mustermann · Credentials");
  // Un-fixing the language gives the page back to the reader's browser.
  await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { language: null } }), 200);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByTestId("validity")).toHaveText(`Signature valid · issued by “E2E ${org.slug}” (name not verified)`);
  await context.close();
});

test("an unknown or malformed Accept-Language is English; a regional one finds its language", async ({ api, org, server, browser }) => {
  const group = await walletGroup(api, { name: "Any Language Course" });
  const credential = await issueCredential(api, group.id, { name: "Kim Lee" });
  // A browser's language setting (Chromium sends it as Accept-Language).
  for (const [locale, lang, pill] of [
    ["pt-PT", "pt-BR", `Assinatura válida · emitida por “E2E ${org.slug}” (nome não verificado)`],
    ["zh-CN", "zh-Hans", `签名有效 · 由“E2E ${org.slug}”颁发（名称未经验证）`],
    ["hi-IN", "hi", `हस्ताक्षर मान्य · “E2E ${org.slug}” द्वारा जारी (नाम सत्यापित नहीं)`],
    ["tlh", "en", `Signature valid · issued by “E2E ${org.slug}” (name not verified)`],
  ] as const) {
    const context = await reader(browser, { locale });
    const page = await open(context, walletUrl(server, credential.publicId));
    await expect(page.locator("html"), locale).toHaveAttribute("lang", lang);
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.getByTestId("validity")).toHaveText(pill);
    await context.close();
  }
  // Headers no browser sends: the server's answer as it is.
  const context = await reader(browser, {});
  for (const header of ["tlh, xx-YY;q=0.9", "%%%;q=abc", "*", "a".repeat(3000), ",,,;;;"]) {
    const res = await context.request.get(walletUrl(server, credential.publicId), { headers: { "Accept-Language": header } });
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html, header).toMatch(/<html lang="en" dir="ltr"/);
    expect(html).toContain("Signature valid · issued by “");
    // Rendered per request for its reader and never stored: no cache can hand one reader's language to another.
    expect(res.headers()["cache-control"]).toMatch(/no-store/);
  }
  const spanish = await context.request.get(walletUrl(server, credential.publicId), {
    headers: { "Accept-Language": "es-MX,es;q=0.9,en;q=0.5" },
  });
  expect(await spanish.text()).toMatch(/<html lang="es" dir="ltr"/);
  await context.close();
});

test("the not-found page speaks the reader's language; the dashboard stays English", async ({ server, browser }) => {
  const context = await reader(browser, { locale: "es-MX" });
  const page = await context.newPage();
  const response = await page.goto(`http://localhost:${server.port}/credentials/00000000-0000-4000-8000-000000000000`);
  expect(response?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.locator("h1")).toHaveText("Credencial no encontrada");
  expect(await page.title()).toContain("Credencial no encontrada");
  const arabic = await reader(browser, { locale: "ar" });
  const signin = await arabic.newPage();
  await signin.goto(`http://localhost:${server.port}/signin`);
  await expect(signin.locator("html")).toHaveAttribute("lang", "en");
  await expect(signin.locator("html")).toHaveAttribute("dir", "ltr");
  await context.close();
  await arabic.close();
});
