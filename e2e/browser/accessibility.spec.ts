// axe-core (WCAG 2.x A and AA rules, and best practices) over every page a person uses: the public
// pages (sign-in, sign-up, the wallet as a guest and as the recipient, in English and in Arabic, the issuer profile), every
// dashboard page the navigation offers, and the detail pages (a credential, a template, the design
// editor), at desktop and phone size. Zero violations of any impact.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createTemplate, expect, newAccount, signUp, site, test } from "../support/dashboard-helpers";

test.describe.configure({ timeout: 480_000 });

type Found = { page: string; id: string; impact: string | null | undefined; help: string; nodes: string[] };

/** Runs axe on the page and adds what it finds to `into` (asserted once, after every page, so one run shows them all). */
async function collectViolations(page: Page, into: Found[], what: string) {
  await page.waitForLoadState("load");
  await page
    .locator("html[data-hydrated]")
    .waitFor({ state: "attached", timeout: 10_000 })
    .catch(() => undefined);
  // The template page's email preview is a sandboxed iframe (no scripts): axe cannot run inside it and
  // would wait for it forever. Its content is the email, whose HTML is checked by the email tests.
  const results = await new AxeBuilder({ page })
    .exclude("iframe[sandbox]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const found = results.violations.map((v) => ({
    page: what,
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 3).join(" ")}`),
  }));
  into.push(...found);
}

for (const viewport of [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test.describe(viewport.name, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`every page passes axe (${viewport.name})`, async ({ page, server, browser }, testInfo) => {
      const found: Found[] = [];
      await page.goto(`${site(server)}/signin`);
      await collectViolations(page, found, "sign-in");
      await page.goto(`${site(server)}/signup`);
      await collectViolations(page, found, "sign-up");

      await signUp(page, server, newAccount("Axe Academy"));
      await createTemplate(page, server, "Accessible Course");
      await page.goto(`${site(server)}/dashboard/credentials`);
      await page.fill("#c-name", "Grace Hopper");
      await page.fill("#c-email", `grace.${Date.now()}@example.com`);
      await page.getByRole("button", { name: "Issue and send" }).click();
      await expect(page.getByText("Credential created (issued).")).toBeVisible();

      const nav = page.getByRole("navigation", { name: "Dashboard" });
      await page.goto(`${site(server)}/dashboard`);
      const hrefs = await nav.locator("a[href^='/dashboard']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
      for (const href of hrefs) {
        await page.goto(`${site(server)}${href}`);
        await collectViolations(page, found, href);
      }

      await page.goto(`${site(server)}/dashboard/credentials`);
      await page.getByRole("link", { name: "Grace Hopper" }).click();
      await page.waitForURL(/\/dashboard\/credentials\/cred_/);
      await collectViolations(page, found, "a credential's page");
      const walletHref = await page
        .locator("a[href*='/credentials/']")
        .filter({ hasText: /wallet|public page|view/i })
        .first()
        .getAttribute("href")
        .catch(() => null);

      await page.goto(`${site(server)}/dashboard/templates`);
      await page.getByRole("link", { name: "Accessible Course" }).first().click();
      await page.waitForURL(/\/dashboard\/templates\/grp_/);
      await collectViolations(page, found, "a template's page");

      await page.goto(`${site(server)}/dashboard/designs`);
      await page.getByRole("link", { name: "Classic Certificate", exact: true }).click();
      await page.waitForURL(/\/dashboard\/designs\/dsn_/);
      await expect(page.getByTestId("design-stage")).toBeVisible();
      await collectViolations(page, found, "the design editor");

      // The public faces.
      const publicPath = walletHref ? new URL(walletHref, site(server)).pathname : null;
      expect(publicPath, "the credential page links to its wallet page").toMatch(/^\/credentials\/[^/]+$/);
      await page.goto(`${site(server)}${publicPath}`);
      await collectViolations(page, found, "the wallet (guest)");
      await page.goto(`${site(server)}${publicPath}?recipient=true`);
      await collectViolations(page, found, "the wallet (recipient)");
      // The wallet in Arabic (an Arabic browser): right to left, every text translated.
      const arabic = await browser.newContext({ locale: "ar", viewport: { width: viewport.width, height: viewport.height } });
      const arabicPage = await arabic.newPage();
      await arabicPage.goto(`${site(server)}${publicPath}`);
      await expect(arabicPage.locator("html")).toHaveAttribute("dir", "rtl");
      await collectViolations(arabicPage, found, "the wallet in Arabic (guest)");
      await arabicPage.goto(`${site(server)}${publicPath}?recipient=true`);
      await collectViolations(arabicPage, found, "the wallet in Arabic (recipient)");
      await arabic.close();
      const profile = await page.locator("a[href^='/organizations/']").first().getAttribute("href");
      expect(profile).toMatch(/^\/organizations\/[^/]+$/);
      await page.goto(`${site(server)}${profile}`);
      await collectViolations(page, found, "the issuer profile");

      if (found.length) await testInfo.attach("axe violations", { body: JSON.stringify(found, null, 2), contentType: "application/json" });
      expect(found, "axe violations").toEqual([]);
    });
  });
}
