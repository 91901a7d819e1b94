// Settings → "Email and LinkedIn" in Chromium (issue 19, items 2 to 4): bad input gets a clear error
// next to its field and nothing is saved; good input is saved, shapes the next credential email's
// sender and the wallet's "Add to LinkedIn profile" link. Screenshots at 1440×900 and 390×844.
import type { Browser, Page } from "@playwright/test";
import addressparser from "nodemailer/lib/addressparser/index.js";
import { createToken, emailTo, expect, newAccount, shot, signIn, signUp, site, test } from "../support/dashboard-helpers";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";

test.describe.configure({ timeout: 180_000 });

async function newPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  return context.newPage();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function fillBranding(page: Page, values: { sender: string; reply: string; colour: string; linkedin: string }) {
  await field(page, "Sender name").fill(values.sender);
  await field(page, "Reply-to address").fill(values.reply);
  await field(page, "Brand colour").fill(values.colour);
  await field(page, "LinkedIn company page id").fill(values.linkedin);
  await page.getByRole("region", { name: "Email and LinkedIn" }).getByRole("button", { name: "Save" }).click();
}

test("bad values are refused next to their fields and nothing is saved; good values are saved and used by the email and the wallet", async ({
  browser,
  server,
  client,
}, testInfo) => {
  const page = await newPage(browser, { width: 1440, height: 900 });
  const account = newAccount(`Acme ${Date.now().toString(36)}`);
  await signUp(page, server, account);
  await page.goto(`${site(server)}/dashboard/settings`);
  const section = page.getByRole("region", { name: "Email and LinkedIn" });
  await expect(section).toBeVisible();
  await expect(section.getByTestId("sender-preview")).toHaveText(`“${account.organizationName} via Credentials”`);

  await fillBranding(page, {
    sender: "Registrar",
    reply: "not-an-address",
    colour: "blue",
    linkedin: "https://www.linkedin.com/company/acme/",
  });
  await expect(section.getByRole("alert")).toHaveText("Please correct the highlighted fields.");
  await expect(section.getByText("The reply-to address must be a valid email address")).toBeVisible();
  await expect(section.getByText("The brand colour must be a hex colour like #1d4ed8")).toBeVisible();
  await expect(section.getByText("The LinkedIn company page id must be your LinkedIn company page's numeric id")).toBeVisible();
  for (const label of ["Reply-to address", "Brand colour", "LinkedIn company page id"])
    await expect(field(page, label)).toHaveAttribute("aria-invalid", "true");
  await expect(field(page, "Sender name")).toHaveAttribute("aria-invalid", "false");
  // What was typed stays, to be corrected.
  await expect(field(page, "Brand colour")).toHaveValue("blue");
  await shot(page, testInfo, "settings-branding-errors-1440");
  // Nothing was saved, not even the good sender name.
  await page.reload();
  await expect(field(page, "Sender name")).toHaveValue("");
  await expect(field(page, "Brand colour")).toHaveValue("");

  await fillBranding(page, {
    sender: `Acme "Registrar" <x@evil.example>`,
    reply: "registrar@acme.example",
    colour: "#0F766E",
    linkedin: "https://www.linkedin.com/company/1337/admin/",
  });
  await expect(section.getByRole("status")).toHaveText("Saved. New emails and wallet pages use these settings.");
  await page.reload();
  await expect(field(page, "Sender name")).toHaveValue(`Acme "Registrar" <x@evil.example>`);
  await expect(field(page, "Reply-to address")).toHaveValue("registrar@acme.example");
  await expect(field(page, "Brand colour")).toHaveValue("#0f766e");
  await expect(field(page, "LinkedIn company page id")).toHaveValue("1337");
  await expect(section.getByTestId("sender-preview")).toHaveText(`“Acme "Registrar" <x@evil.example> via Credentials”`);
  await shot(page, testInfo, "settings-branding-1440");

  // The next credential: its email's sender and reply-to, and the wallet's LinkedIn link.
  const token = await createToken(page, server, "branding");
  const api = await client({ token, baseURL: server.baseURL });
  const group = await walletGroup(api, { name: "Data Science Certificate" });
  const address = `brand-${Date.now().toString(36)}@example.com`;
  const credential = await issueCredential(api, group.id, { name: "Ada Lovelace", email: address });
  const mail = await emailTo(server, address);
  // Read as a mail client reads it: one mailbox, ours, named with the whole sender name.
  expect(addressparser(mail.from, { flatten: true })).toEqual([
    { address: "no-reply@localhost", name: `Acme "Registrar" <x@evil.example> via Credentials` },
  ]);
  expect(mail.headers["reply-to"]).toBe("registrar@acme.example");
  expect(mail.html).toContain("background:#0f766e");
  await page.goto(`${site(server)}/credentials/${credential.publicId}?recipient=true`);
  const linkedIn = new URL((await page.getByRole("link", { name: "Add to LinkedIn profile" }).getAttribute("href"))!);
  expect(linkedIn.searchParams.get("organizationId")).toBe("1337");
  expect(linkedIn.searchParams.has("organizationName")).toBe(false);

  // Emptied fields clear the settings: the link names the organization again.
  await page.goto(`${site(server)}/dashboard/settings`);
  await fillBranding(page, { sender: "", reply: "", colour: "", linkedin: "" });
  await expect(section.getByRole("status")).toBeVisible();
  await page.goto(`${site(server)}/credentials/${credential.publicId}?recipient=true`);
  const named = new URL((await page.getByRole("link", { name: "Add to LinkedIn profile" }).getAttribute("href"))!);
  expect(named.searchParams.get("organizationName")).toBe(account.organizationName);
  expect(named.searchParams.has("organizationId")).toBe(false);

  // The phone layout: every field fits the width.
  await page.context().close();
  const phone = await newPage(browser, { width: 390, height: 844 });
  await signIn(phone, server, account.email, account.password);
  await phone.waitForURL(/\/dashboard/);
  await phone.goto(`${site(server)}/dashboard/settings`);
  await fillBranding(phone, { sender: "", reply: "x@", colour: "#12345", linkedin: "" });
  await expect(phone.getByText("The brand colour must be a hex colour like #1d4ed8")).toBeVisible();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(phone, testInfo, "settings-branding-errors-390");
  await phone.context().close();
});
