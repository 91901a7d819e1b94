// Text a design cannot draw, caught in the dashboard before anything is issued: the single form asks
// before issuing a credential whose name has characters no bundled font has (Ethiopic here), issues
// only once that is confirmed, and does not ask for names the renderer draws (Arabic, Hebrew,
// Devanagari); the CSV report lists such rows as warnings, apart from the rows with problems, and
// still lets the import go ahead.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  apiGet,
  createTemplate,
  createToken,
  emailsMentioning,
  expect,
  newAccount,
  shot,
  signUp,
  site,
  test,
} from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1440, height: 900 } });

type Credential = { id: string; status: string; attributes: Record<string, string | null> };

const ETHIOPIC_WARNING = "Classic Certificate cannot draw ሰ U+1230, ላ U+120B, ም U+121D (in Recipient name)";

async function credentials(server: ServerInfo, token: string): Promise<Credential[]> {
  return (await apiGet<{ data: Credential[] }>(server, token, "/v1/credentials?limit=100")).data;
}

async function fillForm(page: Page, name: string, email: string) {
  await page.fill("#c-name", name);
  await page.fill("#c-email", email);
}

test("the single form asks before issuing text a design cannot draw, and issues only once confirmed", async ({
  page,
  server,
}, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  await signUp(page, server, newAccount("Scripts School"));
  await createTemplate(page, server, "Course");
  const token = await createToken(page, server, "tests");
  await page.goto(`${site(server)}/dashboard/credentials`);

  // An Ethiopic name: "Issue and send" writes nothing and asks, naming the design and the characters.
  const address = `ethiopic.${tag}@example.com`;
  await fillForm(page, "Alex ሰላም", address);
  await page.getByRole("button", { name: "Issue and send" }).click();
  const question = page.getByTestId("undrawable-question");
  await expect(question).toBeVisible();
  await expect(question.getByRole("heading")).toHaveText("Some of this text cannot be drawn on the certificate");
  await expect(question.getByTestId("undrawable-designs")).toHaveText(ETHIOPIC_WARNING);
  await expect(question).toContainText("Nothing has been issued yet.");
  await expect(question).toBeFocused();
  expect(await credentials(server, token)).toEqual([]);
  expect(emailsMentioning(server, address)).toEqual([]);
  await shot(page, testInfo, "undrawable-question-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, "undrawable-question-phone");
  await page.setViewportSize({ width: 1440, height: 900 });

  // "Go back and fix" drops the question and returns to the name; the typed values stay.
  await question.getByRole("button", { name: "Go back and fix" }).click();
  await expect(question).toBeHidden();
  await expect(page.locator("#c-name")).toBeFocused();
  await expect(page.locator("#c-name")).toHaveValue("Alex ሰላም");
  expect(await credentials(server, token)).toEqual([]);

  // Changing the form also drops it: the answer was about other text.
  await page.getByRole("button", { name: "Issue and send" }).click();
  await expect(question).toBeVisible();
  await page.fill("#c-name", "Alex ሰላም ሰ");
  await expect(question).toBeHidden();

  // Asked again, confirmed from the keyboard: issued, with the warning kept in view.
  await page.fill("#c-name", "Alex ሰላም");
  await page.getByRole("button", { name: "Issue and send" }).click();
  await expect(question).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Go back and fix" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Issue anyway — the recipient gets no certificate image for that design" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Credential created (issued).")).toBeVisible();
  await expect(page.getByTestId("undrawable-notice")).toContainText(ETHIOPIC_WARNING);
  await expect(page.locator("#c-name")).toHaveValue("");
  const issued = await credentials(server, token);
  expect(issued.map((c) => [c.attributes["recipient.name"], c.status])).toEqual([["Alex ሰላም", "issued"]]);

  // Names in scripts the renderer draws are issued at once, without a question.
  for (const [i, name] of ["محمد علي", "דוד כהן", "अनन्या शर्मा"].entries()) {
    await fillForm(page, name, `script.${i}.${tag}@example.com`);
    await page.getByRole("button", { name: "Issue and send" }).click();
    await expect(page.getByText("Credential created (issued).")).toBeVisible();
    await expect(question).toBeHidden();
    await expect(page.getByTestId("undrawable-notice")).toBeHidden();
    await expect(page.locator("#c-name")).toHaveValue("");
  }
  expect((await credentials(server, token)).map((c) => c.attributes["recipient.name"]).sort()).toEqual(
    ["Alex ሰላም", "अनन्या शर्मा", "דוד כהן", "محمد علي"].sort(),
  );

  // A draft is saved without asking, the warning shown with it.
  await fillForm(page, "Bo ሰላም", `draft.${tag}@example.com`);
  await page.getByRole("button", { name: "Save as draft" }).click();
  await expect(page.getByText("Credential created (draft).")).toBeVisible();
  await expect(page.getByTestId("undrawable-notice")).toContainText(
    "When this draft is issued, the recipient gets no certificate image from these designs:",
  );
  await expect(page.getByTestId("undrawable-notice")).toContainText(ETHIOPIC_WARNING);
  expect((await credentials(server, token)).find((c) => c.attributes["recipient.name"] === "Bo ሰላም")?.status).toBe("draft");
});

test("the CSV report lists rows a design cannot draw as warnings, apart from problems, and the import still goes ahead", async ({
  page,
  server,
}, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  await signUp(page, server, newAccount("Import Scripts"));
  await createTemplate(page, server, "Course");
  const lines = [
    "Full name;E-mail",
    `Ada Lovelace;ada.${tag}@example.com`,
    `محمد علي;arabic.${tag}@example.com`,
    `Alex ሰላም;ethiopic.${tag}@example.com`,
    `No Address;not-an-email`,
    `דוד כהן;hebrew.${tag}@example.com`,
    `ⴰⵣⵓⵍ Tifinagh;tifinagh.${tag}@example.com`,
  ];
  await page.goto(`${site(server)}/dashboard/credentials/import`);
  await page.selectOption("#import-template", { label: "Course" });
  await page.setInputFiles("#import-file", { name: "scripts.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n"), "utf8") });
  await page.getByRole("button", { name: "Upload and map columns" }).click();
  await page.getByRole("button", { name: "Check 6 rows" }).click();

  await expect(page.getByTestId("import-summary")).toHaveText(
    "5 of 6 rows are ready to issue. 1 row has problems and will be skipped (nothing is written for them). 2 of the rows ready to issue have a warning: text a design cannot draw.",
  );
  await expect(page.getByRole("table", { name: "Rows with problems" }).locator("tbody tr")).toHaveCount(1);
  const warnings = page.getByRole("table", { name: "Rows whose text cannot be drawn" }).locator("tbody tr");
  await expect(warnings).toHaveCount(2);
  await expect(warnings.nth(0).locator("td")).toHaveText(["4", "Full name", "Classic Certificate", "ሰ U+1230, ላ U+120B, ም U+121D"]);
  await expect(warnings.nth(1).locator("td")).toHaveText([
    "7",
    "Full name",
    "Classic Certificate",
    "ⴰ U+2D30, ⵣ U+2D63, ⵓ U+2D53, ⵍ U+2D4D",
  ]);
  await expect(page.getByTestId("import-text-warnings")).toContainText(
    "still valid credentials, but the design named draws no certificate image for them",
  );
  await expect(page.getByTestId("confirm-warning")).toHaveText(
    "2 of them are issued without a certificate image for the designs named in the warnings above.",
  );
  await shot(page, testInfo, "import-warnings-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, "import-warnings-phone");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Warnings do not block: the five valid rows are issued.
  await page.getByRole("button", { name: "Issue 5 credentials" }).click();
  await expect(page.getByTestId("import-done")).toContainText(
    "Finished: 5 credentials issued, 1 skipped because of problems in the file.",
    { timeout: 60_000 },
  );
});
