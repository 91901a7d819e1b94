// The issuer dashboard in Chromium, as a person who never read the API docs uses it: sign up, look at
// the starter designs, make a template, issue and send a credential, open the emailed wallet link;
// API tokens that work until revoked; every form's errors next to the field; and one organization
// never reaching another's data. Screenshots of each page are attached to the report.
import { randomUUID } from "node:crypto";
import { SERVICE_VERSION } from "../fixtures";
import { makePng } from "../support/api-helpers";
import {
  apiStatus,
  createTemplate,
  createToken,
  emailTo,
  expect,
  fillSignUp,
  newAccount,
  shot,
  signIn,
  signUp,
  site,
  test,
  walletLinkIn,
} from "../support/dashboard-helpers";
import { uniqueAddress } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

test("a new issuer goes from sign-up to a sent certificate in the browser", async ({ page, server }, testInfo) => {
  const account = newAccount("Hopper Academy");

  // A mistake is named next to its field, the rest of the form keeps its input, and nothing is created.
  await page.goto(`${site(server)}/signup`);
  await shot(page, testInfo, "signup");
  await fillSignUp(page, { ...account, password: "short" });
  await expect(page.locator("#password-error")).toHaveText("must be at least 10 characters");
  await expect(page.locator("#email")).toHaveValue(account.email);
  await expect(page.locator("#password")).toHaveAttribute("aria-invalid", "true");
  await page.fill("#password", account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${site(server)}/dashboard`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hopper Academy");
  await expect(page.getByText("0 of 250 credentials issued")).toBeVisible();
  await shot(page, testInfo, "overview");

  // Starter designs, rendered by the preview renderer.
  await page.getByRole("navigation").getByRole("link", { name: "Designs" }).click();
  const cards = page.locator("article");
  await expect(cards).toHaveCount(11); // every starter design (lib/designs/seed-documents.ts)
  for (const img of await page.locator("article img").all()) {
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
  }
  await shot(page, testInfo, "designs");

  // A template: the API's validation messages show next to the fields.
  await page.getByRole("navigation").getByRole("link", { name: "Templates" }).click();
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("must not be empty")).toBeVisible();
  await expect(page.getByText("must list at least one design")).toBeVisible();
  await page.fill("#tpl-name", "Python Basics");
  await page.getByLabel("Classic Certificate").check();
  await page.getByLabel("Achievement Badge").check();
  await page.fill("#tpl-url", "ftp://example.com/course");
  await page.fill("#tpl-expiry", "2");
  await page.selectOption("#tpl-unit", "year");
  await page.fill("#tpl-subject", "Your [group.name] certificate");
  await page.fill("#tpl-text", "Hello [recipient.name], your certificate is ready: [credential.url]");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("must be an absolute http(s) URL")).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(0);
  await page.fill("#tpl-url", "https://example.com/python");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Template “Python Basics” created.")).toBeVisible();
  await page.reload();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  // In the order they were picked, not the order they are listed in.
  await expect(page.locator("tbody tr")).toContainText("Classic Certificate, Achievement Badge");
  await expect(page.locator("tbody tr")).toContainText("2 year(s) after issue");
  await shot(page, testInfo, "templates");

  // A credential, issued and sent in one go.
  await page.getByRole("navigation").getByRole("link", { name: "Credentials" }).click();
  await page.fill("#c-name", "Charles Babbage");
  await page.fill("#c-email", "charles@example");
  await page.getByRole("button", { name: "Issue and send" }).click();
  await expect(page.getByText("must be a valid email address")).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(0);
  const recipient = `charles.${randomUUID()}@example.com`;
  await page.fill("#c-email", recipient);
  await page.getByRole("button", { name: "Issue and send" }).click();
  await expect(page.getByText("Credential created (issued).")).toBeVisible();
  await page.reload();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText("issued");
  await shot(page, testInfo, "credentials");

  const mail = await emailTo(server, recipient);
  expect(mail.subject).toBe("Your Python Basics certificate");
  const link = walletLinkIn(mail.text);
  expect(link, mail.text).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByText("Charles Babbage").first()).toBeVisible();
  await expect(page.getByText("Hopper Academy").first()).toBeVisible();
  await shot(page, testInfo, "wallet");

  // Back in the dashboard: the credential's page shows the delivered email and the recipient's visit,
  // and analytics count it.
  await page.goto(`${site(server)}/dashboard/credentials`);
  await page.getByRole("link", { name: "Charles Babbage" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Charles Babbage");
  // The email's file is written before the worker records it as sent: load again until it has.
  await expect(async () => {
    await page.reload();
    await expect(page.locator("[data-email-status=sent]")).toContainText(recipient, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("row", { name: /Opened by the recipient/ })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  for (const img of await page.locator("article img").all()) {
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
  }
  await shot(page, testInfo, "credential-detail");

  await page.getByRole("navigation").getByRole("link", { name: "Analytics" }).click();
  // The recipient's visit: one credential opened by its recipient, in the funnel and per template.
  await expect(page.locator("[data-stage=opened] [data-count=credentials]")).toHaveText("1");
  await expect(page.getByRole("region", { name: "Funnel per template" })).toContainText("Python Basics");
  await shot(page, testInfo, "analytics");
});

test("a draft is filtered, issued from its row, and the table's filter is the search API's", async ({ page, server }) => {
  await signUp(page, server, newAccount());
  await createTemplate(page, server, "Workshop", ["Modern Certificate"]);

  await page.goto(`${site(server)}/dashboard/credentials`);
  for (const name of ["Ada Lovelace", "Zoë Ångström"]) {
    await page.fill("#c-name", name);
    await page.getByRole("button", { name: "Save as draft" }).click();
    await expect(page.getByText("Credential created (draft).")).toBeVisible();
    await page.reload();
  }
  await page.getByLabel("Recipient name contains").fill("ZOË");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/name=ZO%C3%8B/);
  // No email, so no recipient: recipient.name search does not match credentials without one.
  await expect(page.getByText("No credentials match.")).toBeVisible();
  await expect(page.locator("details")).toContainText(`"recipient.name":{"contains":"ZOË"}`);

  await page.goto(`${site(server)}/dashboard/credentials?status=draft`);
  await expect(page.locator("tbody tr")).toHaveCount(2);
  await page.locator("tbody tr", { hasText: "Ada Lovelace" }).getByRole("button", { name: "Issue" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await page.goto(`${site(server)}/dashboard/credentials?status=issued`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText("Ada Lovelace");
});

test("an API token works until it is revoked, and is shown only once", async ({ page, server }, testInfo) => {
  await signUp(page, server, newAccount());
  await page.goto(`${site(server)}/dashboard/tokens`);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.locator("#token-name-error")).toHaveText("Name must not be empty");

  const token = await createToken(page, server, "LMS integration");
  expect(await apiStatus(server, token)).toBe(200);
  await shot(page, testInfo, "token-created");

  await page.reload();
  await expect(page.getByText(token)).toHaveCount(0);
  const row = page.locator("tr", { hasText: "LMS integration" });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText("active");
  await expect(row).not.toContainText("never"); // used once, just now

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  expect(await apiStatus(server, token)).toBe(401);
  await shot(page, testInfo, "token-revoked");
});

test("settings: the organization's name and logo, with errors next to the fields", async ({ page, server }, testInfo) => {
  await signUp(page, server, newAccount("Before Rename"));
  await page.goto(`${site(server)}/dashboard/settings`);
  const nameForm = page.locator("form").filter({ has: page.locator("#org-name") });
  await page.fill("#org-name", "   ");
  await nameForm.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("#org-name-error")).toHaveText("Name must not be empty");
  await page.fill("#org-name", "After Rename");
  await nameForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.locator("aside")).toContainText("After Rename");

  await page.setInputFiles("#logo", { name: "logo.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.locator("#logo-error")).toContainText("The logo");
  await expect(page.getByAltText("Current logo")).toHaveCount(0);

  const png = makePng(160, 60, [29, 78, 216, 255]);
  await page.setInputFiles("#logo", { name: "logo.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Logo updated.")).toBeVisible();
  await page.reload();
  await expect
    .poll(() => page.getByAltText("Current logo").evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
    .toBe(true);
  await expect(page.getByText("0 of 250 credentials issued")).toBeVisible();
  await shot(page, testInfo, "settings");
});

test("sign-in: wrong passwords are refused, an existing email cannot sign up twice, pages need a session", async ({ page, server }) => {
  await page.goto(`${site(server)}/dashboard/tokens`);
  await expect(page).toHaveURL(`${site(server)}/signin`);

  const account = newAccount();
  await signUp(page, server, account);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/signin/);
  await page.goto(`${site(server)}/dashboard`);
  await expect(page).toHaveURL(`${site(server)}/signin`);

  await signIn(page, server, account.email, "not the password");
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await signIn(page, server, `nobody.${randomUUID()}@example.com`, account.password);
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");

  await page.goto(`${site(server)}/signup`);
  await fillSignUp(page, { ...newAccount(), email: account.email.toUpperCase() });
  await expect(page.locator("#email-error")).toHaveText("an account with this email already exists; sign in instead");

  await signIn(page, server, account.email.toUpperCase(), account.password);
  await page.waitForURL(`${site(server)}/dashboard`);
  const session = (await page.context().cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
});

test("sign-in is rate-limited per address", async ({ page, server }) => {
  const account = newAccount();
  await signUp(page, server, account);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/signin/);
  let limited = false;
  for (let i = 0; i < 12 && !limited; i++) {
    await signIn(page, server, account.email, `wrong password ${i}`);
    const error = page.getByTestId("form-error");
    await expect(error).toBeVisible();
    limited = (await error.textContent())!.includes("Too many sign-in attempts");
  }
  expect(limited).toBe(true);
});

test("one organization's member cannot reach another's data", async ({ browser, page, server }) => {
  const a = newAccount("Org A");
  await signUp(page, server, a);

  const other = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const pageB = await other.newPage();
  await signUp(pageB, server, newAccount("Org B"));
  const tokenB = await createToken(pageB, server, "B's token");
  await pageB.goto(`${site(server)}/dashboard/templates`);
  await pageB.fill("#tpl-name", "B's template");
  await pageB.getByLabel("Classic Certificate").check();
  await pageB.getByRole("button", { name: "Create template" }).click();
  await expect(pageB.getByText("created.")).toBeVisible();
  const groupB = await (
    await fetch(`${server.baseURL}/v1/groups`, {
      headers: { Authorization: `Bearer ${tokenB}`, "Service-Version": SERVICE_VERSION, "X-Forwarded-Proto": "https" },
    })
  ).json();
  const groupIdB = (groupB as { data: { id: string }[] }).data[0]!.id;

  // A sees none of it.
  await page.goto(`${site(server)}/dashboard/tokens`);
  await expect(page.getByText("B's token")).toHaveCount(0);
  await page.goto(`${site(server)}/dashboard/templates`);
  await expect(page.getByText("B's template")).toHaveCount(0);
  await page.goto(`${site(server)}/dashboard/credentials?template=${groupIdB}`);
  await expect(page.getByRole("option", { name: "B's template" })).toHaveCount(0);

  // A forged revoke of B's token (A's own form, B's prefix) is refused by the server.
  const tokenA = await createToken(page, server, "A's token");
  await page.reload();
  const rowA = page.locator("tr", { hasText: "A's token" });
  await rowA.locator("input[name=prefix]").evaluate((input: HTMLInputElement, prefix) => (input.value = prefix), tokenB.slice(0, 12));
  page.once("dialog", (dialog) => void dialog.accept());
  await rowA.getByRole("button", { name: "Revoke" }).click();
  await expect(rowA).toContainText("no such token in your organization");
  expect(await apiStatus(server, tokenB)).toBe(200);
  expect(await apiStatus(server, tokenA)).toBe(200);

  // A forged credential for B's template is a validation error on groupId; nothing is written.
  await page.goto(`${site(server)}/dashboard/templates`);
  await page.fill("#tpl-name", "A's template");
  await page.getByLabel("Classic Certificate").check();
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("created.")).toBeVisible();
  await page.goto(`${site(server)}/dashboard/credentials`);
  await page
    .locator("#c-template option")
    .first()
    .evaluate((option: HTMLOptionElement, id) => (option.value = id), groupIdB);
  await page.fill("#c-name", "Mallory");
  await page.getByRole("button", { name: "Save as draft" }).click();
  await expect(page.getByText("no group with this id in your organization")).toBeVisible();
  await page.reload();
  await expect(page.getByText("No credentials match.")).toBeVisible();
  await other.close();
});

test("a template's email: edited as text, previewed with sample values, sent to me as a test", async ({ page, server }, testInfo) => {
  const account = newAccount("Preview Institute");
  await signUp(page, server, account);
  await page.goto(`${site(server)}/dashboard/templates`);
  await page.fill("#tpl-name", "Safety Training");
  await page.getByLabel("Modern Certificate").check();
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Template “Safety Training” created.")).toBeVisible();
  await page.reload();
  await page.getByRole("link", { name: "Safety Training" }).click();

  // No template yet: the built-in email, with sample values.
  await expect(page.getByTestId("email-subject")).toHaveText("Preview Institute issued you a credential: Safety Training");

  // Own text without a subject: the built-in subject goes with it, as the field's label says.
  await page.fill("#tpl-subject", "");
  await page.fill("#tpl-text", "Hi [recipient.name] <you>,\n\n[credential.url]");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByText("Template “Safety Training” saved.")).toBeVisible();
  await page.reload();
  await expect(page.locator("#tpl-subject")).toHaveValue("[organization.name] issued you a credential: [group.name]");
  await page.fill("#tpl-subject", "Well done, [recipient.name]");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByText("Template “Safety Training” saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("email-subject")).toHaveText("Well done, Alex Morgan");
  const preview = page.frameLocator("iframe[title^='Email preview']");
  await expect(preview.getByText("Hi Alex Morgan <you>,")).toBeVisible();
  await expect(preview.getByRole("link", { name: "View your credential" })).toBeVisible();
  await shot(page, testInfo, "template-email");

  await page.getByRole("button", { name: /Send a test to me/ }).click();
  await expect(page.getByText(`Test email sent to ${account.email}`)).toBeVisible();
  const mail = await emailTo(server, account.email);
  expect(mail.subject).toBe("[Test] Well done, Alex Morgan");
  expect(mail.text).toContain("Hi Alex Morgan <you>,");
  // In the branded frame now, names isolated for right-to-left text.
  expect(mail.html).toContain("Hi <bdi>Alex Morgan</bdi> &lt;you&gt;,");
  expect(mail.html).toContain(">View your credential</a>");
});
