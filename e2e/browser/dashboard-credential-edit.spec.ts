// A credential corrected and deleted from the dashboard, as an issuer fixes a typo: Edit details takes
// the API's PATCH rules (a refused edit names the field and changes nothing), Delete asks first and
// is the API's DELETE; the credentials table says whether each email went out (under the status), and
// which are revoked.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTemplate, createToken, emailTo, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import { dashboardApi } from "../support/dashboard-api";
import type { ServerInfo } from "../support/state";

test.describe.configure({ timeout: 120_000 });

async function setUp(page: Page, server: ServerInfo, organizationName: string) {
  await signUp(page, server, newAccount(organizationName));
  await createTemplate(page, server, "Course");
  const api = dashboardApi(server, await createToken(page, server, "checks"));
  return { api, groupId: await api.groupId() };
}

const address = (name: string) => `${name}.${randomUUID()}@example.com`;
const editForm = (page: Page) => page.getByTestId("edit-form");

test("edit a credential: bad input names the field and changes nothing; a good edit is the API's PATCH", async ({
  page,
  server,
}, testInfo) => {
  const { api, groupId } = await setUp(page, server, "Typo Academy");
  const email = address("ada");
  const created = await api.createIssueSend({
    groupId,
    recipient: { name: "Ada Lovelacee", email },
    issueDate: "2025-03-01",
    customAttributes: { "custom.grade": "A" },
  });

  await page.goto(`${site(server)}/dashboard/credentials/${created.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ada Lovelacee");
  await page.getByRole("button", { name: "Edit details" }).click();
  const form = editForm(page);
  await expect(form.getByLabel("Recipient name")).toHaveValue("Ada Lovelacee");
  await expect(form.getByLabel("Issue date")).toHaveValue("2025-03-01");

  // Schema mistakes: each message next to its field, and nothing written.
  await form.getByLabel("Recipient name").fill("   ");
  await form.getByLabel("Recipient email").fill("not-an-email");
  await form.getByLabel("Name (custom.…)").fill("two words");
  await form.getByLabel("Value", { exact: true }).fill("x");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("alert")).toHaveText(/Please correct the highlighted fields\. Nothing was changed\./);
  await expect(form.locator("#edit-name-error")).toHaveText("must not be empty");
  await expect(form.getByLabel("Recipient name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.locator("#edit-email-error")).toHaveText("must be a valid email address");
  await expect(form.locator("#edit-new-tag-error")).toContainText("keys must look like custom.<tag>");
  await shot(page, testInfo, "credential-edit-errors");
  expect(await api.get(created.id)).toEqual(created);

  // The service's own rule (expiry before the issue date) is refused in its transaction: nothing written.
  await form.getByLabel("Recipient name").fill("Ada Lovelace");
  await form.getByLabel("Recipient email").fill(email);
  await form.getByLabel("Name (custom.…)").fill("");
  await form.getByLabel("Value", { exact: true }).fill("");
  await form.getByLabel(/^Expiry date/).fill("2025-02-01");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.locator("#edit-expiry-error")).toHaveText("must not be before the issue date (2025-03-01)");
  expect(await api.get(created.id)).toEqual(created);

  // A good edit: the name, the email, both dates, an attribute changed and one added.
  const newEmail = address("ada.king");
  await form.getByLabel("Recipient email").fill(newEmail);
  await form.getByLabel("Issue date").fill("2025-04-01");
  await form.getByLabel(/^Expiry date/).fill("2030-04-01");
  await form.getByLabel("[custom.grade]").fill("A+");
  await form.getByLabel("Name (custom.…)").fill("mentor");
  await form.getByLabel("Value", { exact: true }).fill("Grace Hopper");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("edit-outcome")).toHaveText("Changes saved.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ada Lovelace");
  const after = await api.get(created.id);
  expect(after).toMatchObject({
    recipient: { id: created.recipient!.id, name: "Ada Lovelace", email: newEmail },
    attributes: { "recipient.name": "Ada Lovelace" },
    issueDate: "2025-04-01",
    expiryDate: "2030-04-01",
    customAttributes: { "custom.grade": "A+", "custom.mentor": "Grace Hopper" },
    status: "issued",
  });
  await expect(page.getByRole("row", { name: /custom\.mentor Grace Hopper/ })).toBeVisible();

  // Emptying the expiry date is the API's null: the template's setting (no expiry) applies again.
  await page.getByRole("button", { name: "Edit details" }).click();
  await form.getByLabel(/^Expiry date/).fill("");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("edit-outcome")).toHaveText("Changes saved.");
  expect((await api.get(created.id)).expiryDate).toBeNull();

  // Saving an untouched form writes nothing.
  const untouched = await api.get(created.id);
  await page.getByRole("button", { name: "Edit details" }).click();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("edit-outcome")).toHaveText("Nothing was changed.");
  expect(await api.get(created.id)).toEqual(untouched);
});

test("a credential without a recipient email: its name is not offered for editing (PATCH has no recipient to change)", async ({
  page,
  server,
}) => {
  const { api, groupId } = await setUp(page, server, "No Email Academy");
  const created = await api.draft({ groupId, recipient: { name: "Nameless Draft" } });
  await page.goto(`${site(server)}/dashboard/credentials/${created.id}`);
  await page.getByRole("button", { name: "Edit details" }).click();
  await expect(editForm(page).getByLabel("Recipient name")).toHaveCount(0);
  await expect(editForm(page)).toContainText("cannot be changed: this credential has no recipient email");
  await editForm(page).getByLabel("Issue date").fill("2025-05-05");
  await editForm(page).getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("edit-outcome")).toHaveText("Changes saved.");
  expect((await api.get(created.id)).issueDate).toBe("2025-05-05");
});

test("delete asks first, then deletes through the API's service and returns to the table", async ({ page, server }) => {
  const { api, groupId } = await setUp(page, server, "Delete Academy");
  const keep = await api.draft({ groupId, recipient: { name: "Kept Draft" } });
  const gone = await api.createIssueSend({ groupId, recipient: { name: "Wrong Person", email: address("wrong") } });

  await page.goto(`${site(server)}/dashboard/credentials/${gone.id}`);
  await page.getByRole("button", { name: "Delete…" }).click();
  const confirm = page.getByTestId("delete-form");
  await expect(confirm.getByRole("heading")).toHaveText("Delete the credential of Wrong Person?");
  await expect(confirm).toContainText("cannot be undone");
  // Cancel deletes nothing.
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  expect((await api.get(gone.id)).id).toBe(gone.id);

  await page.getByRole("button", { name: "Delete…" }).click();
  await page.getByTestId("delete-form").getByRole("button", { name: "Delete credential" }).click();
  await page.waitForURL(/\/dashboard\/credentials\?deleted=1$/);
  await expect(page.getByRole("status").filter({ hasText: "The credential was deleted." })).toBeVisible();
  await expect(page.getByRole("link", { name: "Wrong Person" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Kept Draft" })).toBeVisible();
  expect((await api.raw("GET", `/v1/credentials/${gone.id}`)).status).toBe(404);
  expect((await api.get(keep.id)).id).toBe(keep.id);
  expect((await page.goto(`${site(server)}/dashboard/credentials/${gone.id}`))?.status()).toBe(404);
});

test("the email state and revoked status in the table, and the status filter's revoked choice", async ({ page, server }, testInfo) => {
  const { api, groupId } = await setUp(page, server, "Email Status Academy");
  const sentTo = address("sent");
  const sent = await api.createIssueSend({ groupId, recipient: { name: "Sent Person", email: sentTo } });
  const draft = await api.draft({ groupId, recipient: { name: "Draft Person", email: address("draft") } });
  const revoked = await api.createIssueSend({ groupId, recipient: { name: "Revoked Person" } });
  await api.revoke(revoked.id);
  await emailTo(server, sentTo);

  const row = (id: string) => page.locator(`tbody tr[data-credential-id="${id}"]`);
  // The worker writes the message, then records it as sent: a table rendered in between still says
  // "queued", so it is loaded again until the record is in.
  await expect(async () => {
    await page.goto(`${site(server)}/dashboard/credentials`);
    await expect(row(sent.id).locator("[data-email-status]")).toHaveAttribute("data-email-status", "sent", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row(sent.id).getByRole("cell").nth(3)).toHaveText(/^issued\s*email sent$/);
  await expect(row(draft.id).getByRole("cell").nth(3)).toHaveText(/^draft\s*email not sent$/);
  await expect(row(revoked.id)).toContainText("revoked");
  await shot(page, testInfo, "credentials-email-status");

  await page.getByLabel("Status").selectOption("revoked");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=revoked/);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(row(revoked.id)).toBeVisible();

  // Another status shows what the column shows: a revoked credential is not listed as issued.
  await page.goto(`${site(server)}/dashboard/credentials?status=issued`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(row(sent.id)).toBeVisible();
});
