// The public /about page: the product's licence and the attributions the content it ships requires
// (Twemoji's graphics are CC-BY 4.0, which asks for visible credit), reached from the foot of the public
// pages a credential's reader sees: its wallet page and /verify.
import AxeBuilder from "@axe-core/playwright";
import { expect, site, test } from "../support/dashboard-helpers";
import { issueCredential, walletGroup, walletUrl } from "../support/wallet-helpers";

test("/verify and a wallet page link to /about, which names the licence and every attribution", async ({ page, api, server }) => {
  await page.goto(`${site(server)}/verify`);
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(`${site(server)}/about`);
  await expect(page.getByRole("heading", { level: 1, name: "About" })).toBeVisible();

  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "MIT License" })).toHaveAttribute("href", "https://opensource.org/license/mit");
  await expect(main).toContainText("Twemoji");
  await expect(main).toContainText("Twitter, Inc. and other contributors");
  await expect(main.getByRole("link", { name: "CC-BY 4.0" })).toHaveAttribute("href", "https://creativecommons.org/licenses/by/4.0/");
  await expect(main.getByRole("link", { name: /SIL Open Font License/ })).toBeVisible();
  for (const font of ["Inter", "Noto Serif", "Great Vibes", "Noto Sans JP"]) await expect(main).toContainText(font);
  await expect(main).toContainText("W3C Software and Document License");

  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // A credential's wallet page (where its images, emoji included, are shown) has the same link.
  const group = await walletGroup(api, { name: "About Link Course" });
  const credential = await issueCredential(api, group.id, { name: "Ada About" });
  await page.goto(walletUrl(server, credential.publicId));
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "About" })).toHaveAttribute("href", "/about");
});
