// From sign-up to sent certificates in Chromium, as a new issuer with a spreadsheet goes: upload the
// organization's logo, make a design in the editor (an uploaded seal, a line with a custom attribute),
// create a template with that design and its own email, upload a 50-row CSV (a semicolon export with a
// BOM, CRLF and quoted values), check the guessed column mapping, read a report that names exactly the
// 3 bad rows before anything is written, confirm, follow the progress (through a reload) to 47 issued
// credentials and 47 delivered emails, and open a wallet link from one.
// Another organization's member gets 404 for the job, and cannot act on it through a forged form.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { makePng } from "../support/api-helpers";
import {
  createTemplate,
  emailTo,
  expect,
  newAccount,
  shot,
  signUp,
  site,
  test,
  walletLinkIn,
  emailsMentioning,
} from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { uniqueAddress } from "../support/wallet-helpers";

test.describe.configure({ timeout: 180_000 });

/** Rows 7, 20 and 33 are bad (CSV lines 8, 21 and 34): an email that is not one, 30 February, no name. */
function peopleCsv(tag: string): Buffer {
  const lines = ["Full name;E-mail;Issue date;Grade"];
  for (let i = 1; i <= 50; i++) {
    const email = `import.${tag}.${i}@example.com`;
    if (i === 1) lines.push(`"Lovelace; Ada ""Countess""";${email};2026-01-15;A`);
    else if (i === 7) lines.push(`Bad Email ${i};not-an-email;;B`);
    else if (i === 20) lines.push(`Bad Date ${i};${email};2026-02-30;C`);
    else if (i === 33) lines.push(` ;${email};;A`);
    else lines.push(`Person ${i};${email};;${["A", "B", "C"][i % 3]}`);
  }
  return Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n`, "utf8");
}

async function upload(page: Page, server: ServerInfo, template: string, file: { name: string; buffer: Buffer }) {
  await page.goto(`${site(server)}/dashboard/credentials/import`);
  await page.selectOption("#import-template", { label: template });
  await page.setInputFiles("#import-file", { name: file.name, mimeType: "text/csv", buffer: file.buffer });
  await page.getByRole("button", { name: "Upload and map columns" }).click();
}

const jobUrlPattern = /\/dashboard\/credentials\/import\/imp_[0-9a-z]+$/;

/** The organization's logo, through Settings. */
async function uploadLogo(page: Page, server: ServerInfo) {
  await page.goto(`${site(server)}/dashboard/settings`);
  await page.setInputFiles("#logo", { name: "logo.png", mimeType: "image/png", buffer: makePng(160, 60, [29, 78, 216, 255]) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Logo updated.")).toBeVisible();
}

/** A certificate made in the editor: the default layout, an uploaded seal moved into a corner, and a grade line. */
async function designInEditor(page: Page, server: ServerInfo, name: string) {
  await page.goto(`${site(server)}/dashboard/designs`);
  await page.fill("#new-design-name", name);
  await page.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/dashboard\/designs\/dsn_[0-9a-z]+$/);
  await page.setInputFiles("#design-image", { name: "seal.png", mimeType: "image/png", buffer: makePng(120, 120, [202, 138, 4, 255]) });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const seal = page.getByTestId("design-stage").getByRole("button", { name: "Image: seal" });
  await expect(seal).toBeVisible();
  const box = (await seal.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 150, { steps: 8 });
  await page.mouse.up();
  await page.getByRole("button", { name: "Text", exact: true }).click();
  await page.getByLabel("Text", { exact: true }).fill("Grade: ");
  await page.getByLabel("Custom attribute").fill("grade");
  await page.getByRole("button", { name: "Insert", exact: true }).click();
  await expect(page.getByLabel("Text", { exact: true })).toHaveValue("Grade: [custom.grade]");
  await page.getByLabel("Y", { exact: true }).fill("410");
  await expect(page.getByTestId("design-stage").getByRole("img")).toHaveAttribute("src", /^data:image\/png/);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved. New credentials and previews use this version.");
}

/** A template with the editor's design and an email of its own. */
async function templateWithEmail(page: Page, server: ServerInfo, name: string, design: string) {
  await page.goto(`${site(server)}/dashboard/templates`);
  await page.fill("#tpl-name", name);
  await page.getByLabel(design).check();
  await page.fill("#tpl-subject", "Your [group.name] certificate, [recipient.name]");
  await page.fill("#tpl-text", "Hello [recipient.name],\n\nwell done! Your certificate is here: [credential.url]\n\nImport Academy");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText(`Template “${name}” created.`)).toBeVisible();
}

test("from sign-up to 47 sent certificates: logo, a design from the editor, a template with its email, a 50-row CSV with 3 bad rows", async ({
  page,
  server,
  browser,
}, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  await signUp(page, server, newAccount("Import Academy"));
  await uploadLogo(page, server);
  await designInEditor(page, server, "Data Literacy certificate");
  await shot(page, testInfo, "walkthrough-design");
  await templateWithEmail(page, server, "Data Literacy", "Data Literacy certificate");

  // From the credentials page to the upload form.
  await page.goto(`${site(server)}/dashboard/credentials`);
  await page.getByRole("link", { name: "Import them from a CSV file" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Import credentials from a CSV file");
  await shot(page, testInfo, "import-upload");

  // A spreadsheet workbook instead of a CSV: the reason, next to the file field.
  await upload(page, server, "Data Literacy", { name: "people.xlsx", buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]) });
  await expect(page.locator("#import-file-error")).toContainText("spreadsheet workbook (.xlsx), not a CSV file");
  await expect(page.locator("#import-file")).toHaveAttribute("aria-invalid", "true");

  // The real file: columns guessed from their names, first rows shown.
  await upload(page, server, "Data Literacy", { name: "people.csv", buffer: peopleCsv(tag) });
  await page.waitForURL(jobUrlPattern);
  const jobUrl = page.url();
  await expect(page.getByRole("table", { name: "The file's first rows" })).toContainText('Lovelace; Ada "Countess"');
  await expect(page.getByText("separated by semicolons")).toBeVisible();
  const selected = (id: string) => page.locator(`${id} option:checked`);
  await expect(selected("#map-recipient-name")).toHaveText("Full name");
  await expect(selected("#map-recipient-email")).toHaveText("E-mail");
  await expect(selected("#map-issueDate")).toHaveText("Issue date");
  await expect(selected("#map-expiryDate")).toHaveText("— not imported —");
  await expect(selected("#map-custom-grade")).toHaveText("Grade");
  await shot(page, testInfo, "import-mapping");

  // Without a name column the mapping is refused, next to that field.
  await page.selectOption("#map-recipient-name", "");
  await page.getByRole("button", { name: "Check 50 rows" }).click();
  await expect(page.locator("#map-recipient-name-error")).toHaveText("choose the column that holds the recipients' names");
  await page.selectOption("#map-recipient-name", { label: "Full name" });
  await page.getByRole("button", { name: "Check 50 rows" }).click();

  // The report names exactly the three bad rows, with their line, column and the API's message.
  await expect(page.getByTestId("import-summary")).toContainText("47 of 50 rows are ready to issue. 3 rows have problems");
  const problems = page.getByRole("table", { name: "Rows with problems" }).locator("tbody tr");
  await expect(problems).toHaveCount(3);
  await expect(problems.nth(0)).toHaveText(["8", "E-mail", "must be a valid email address"].join(""));
  await expect(problems.nth(1)).toHaveText(["21", "Issue date", "must be a real calendar date in YYYY-MM-DD form"].join(""));
  await expect(problems.nth(2)).toHaveText(["34", "Full name", "must not be empty"].join(""));
  await expect(page.getByRole("button", { name: "Issue 47 credentials" })).toBeVisible();
  await expect(page.getByLabel(/Send the emails/)).toBeChecked();
  await shot(page, testInfo, "import-report");

  // Nothing is written before the confirmation.
  await page.goto(`${site(server)}/dashboard/credentials`);
  await expect(page.getByText("No credentials match.")).toBeVisible();

  // Another organization's member: the job is not found, its progress is not found, and a forged form
  // (B's own confirm form carrying A's job id) is refused.
  const other = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const pageB = await other.newPage();
  await signUp(pageB, server, newAccount("Other Org"));
  expect((await pageB.goto(jobUrl))?.status()).toBe(404);
  expect((await pageB.request.get(`${jobUrl}/progress`)).status()).toBe(404);
  await createTemplate(pageB, server, "B's template");
  await upload(pageB, server, "B's template", { name: "b.csv", buffer: Buffer.from("Name,Email\nMallory,mallory@example.com\n") });
  await pageB.waitForURL(jobUrlPattern);
  await pageB.getByRole("button", { name: "Check 1 row" }).click();
  await expect(pageB.getByRole("button", { name: "Issue 1 credential" })).toBeVisible();
  await pageB
    .locator("form:has(input[name=sendEmails]) input[name=jobId]")
    .evaluate((input: HTMLInputElement, id) => (input.value = id), jobUrl.split("/").pop());
  await pageB.getByRole("button", { name: "Issue 1 credential" }).click();
  await expect(pageB.getByRole("alert").filter({ hasText: "Import not found." })).toBeVisible();
  await other.close();
  // Without a session the progress route answers 401.
  expect((await fetch(`${jobUrl}/progress`, { headers: { "X-Forwarded-For": uniqueAddress() }, redirect: "manual" })).status).toBe(401);

  // A still has its checked import, untouched; confirm it.
  await page.goto(jobUrl);
  await page.getByRole("button", { name: "Issue 47 credentials" }).click();
  await expect(page.getByTestId("import-progress")).toBeVisible();
  // A reload while it runs (it may have finished already: 47 rows take well under a second) renders
  // the job's numbers from the server and goes on polling.
  await page.reload();
  const progress = page.getByTestId("import-progress");
  await expect(progress).toBeVisible();
  const issuedSoFar = Number(await progress.locator("[data-count=issued] strong").textContent());
  expect(issuedSoFar).toBeGreaterThanOrEqual(0);
  expect(issuedSoFar).toBeLessThanOrEqual(47);
  await shot(page, testInfo, "import-progress");
  await expect(progress.locator("[data-count=issued] strong")).toHaveText("47", { timeout: 60_000 });
  await expect(progress.locator("[data-count=emailed] strong")).toHaveText("47", { timeout: 60_000 });
  await expect(progress.locator("[data-count=failed] strong")).toHaveText("0");
  await expect(progress.locator("[data-count=skipped] strong")).toHaveText("3");
  await expect(page.getByTestId("import-done")).toContainText("47 credentials issued, 3 skipped because of problems in the file.");
  await expect(progress.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "47");
  await shot(page, testInfo, "import-done");

  // 47 emails in the outbox's .eml files, none to the skipped rows.
  await expect
    .poll(() => emailsMentioning(server, `import.${tag}.`).filter((m) => m.to.includes(`import.${tag}.`)).length, { timeout: 45_000 })
    .toBe(47);
  const addressed = emailsMentioning(server, `import.${tag}.`).map((m) => m.to);
  for (const skipped of [20, 33]) expect(addressed.some((to) => to.includes(`import.${tag}.${skipped}@`))).toBe(false);

  // The credentials are there, and the emailed link opens the wallet.
  await page.getByRole("link", { name: "See the credentials of Data Literacy" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(25);
  const mail = await emailTo(server, `import.${tag}.1@example.com`);
  expect(mail.subject).toBe('Your Data Literacy certificate, Lovelace; Ada "Countess"');
  expect(mail.text).toContain("well done! Your certificate is here:");
  const link = walletLinkIn(mail.text);
  expect(link, mail.text).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByText('Lovelace; Ada "Countess"').first()).toBeVisible();
  await expect(page.getByText("Import Academy").first()).toBeVisible();
  // The organization's logo and the certificate drawn from the editor's design, both loaded.
  const loaded = (img: ReturnType<Page["getByRole"]>) => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);
  await expect.poll(() => loaded(page.getByRole("img", { name: "Import Academy logo" }))).toBe(true);
  await expect.poll(() => loaded(page.locator("main img[src*='/previews/']").first())).toBe(true);
  await shot(page, testInfo, "import-wallet");
});

test("bad files are refused at upload with the reason, and pages need a session", async ({ page, server }) => {
  await page.goto(`${site(server)}/dashboard/credentials/import`);
  await expect(page).toHaveURL(`${site(server)}/signin`);
  await signUp(page, server, newAccount());
  await createTemplate(page, server, "Course");

  await upload(page, server, "Course", { name: "latin1.csv", buffer: Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x5a, 0x6f, 0xeb, 0x0a]) });
  await expect(page.locator("#import-file-error")).toContainText("The file is not UTF-8 text");
  await upload(page, server, "Course", { name: "open.csv", buffer: Buffer.from('Name,Email\n"Ada,ada@example.com\n') });
  await expect(page.locator("#import-file-error")).toContainText("Line 2: a quoted field is not closed");
  await upload(page, server, "Course", { name: "header.csv", buffer: Buffer.from("Name,Email\n") });
  await expect(page.locator("#import-file-error")).toHaveText("The file has a header row but no data rows.");
  const tooMany = `Name\n${Array.from({ length: 10_001 }, (_, i) => `P${i}`).join("\n")}\n`;
  await upload(page, server, "Course", { name: "many.csv", buffer: Buffer.from(tooMany) });
  await expect(page.locator("#import-file-error")).toHaveText(
    "The file has 10,001 data rows; at most 10,000 can be imported at once. Split it into several files.",
  );
  // Over 5 MB is refused in the browser already, before any upload.
  await page.setInputFiles("#import-file", { name: "big.csv", mimeType: "text/csv", buffer: Buffer.alloc(5 * 1024 * 1024 + 10, 0x61) });
  await expect(page.locator("#import-file-error")).toContainText("at most 5 MB can be imported at once");
  await expect(page).toHaveURL(`${site(server)}/dashboard/credentials/import`);
});
