// Bulk actions on the credentials table that never surprise (docs/dashboard.md, Bulk actions), at a
// phone's 390x844 and a desktop's 1440x900: "Send selected…" says how many would be emailed for the
// first time and how many were emailed already before anything is queued; a double click and a second
// tab email nobody twice; rows already emailed say so; "Revoke selected…" takes one reason and names
// the count; every answer counts each outcome and names each refused row, also when the filtered list
// is emptied by the action.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  createTemplate,
  createToken,
  emailsMentioning,
  emailTo,
  expect,
  newAccount,
  shot,
  signUp,
  site,
  test,
} from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { dashboardApi } from "../support/dashboard-api";

test.describe.configure({ timeout: 180_000 });

type Credential = { id: string; status: string; revokedAt: string | null; revocationReason: string | null };

function apiOf(server: ServerInfo, token: string) {
  const { call } = dashboardApi(server, token);
  return {
    groupId: async () => (await call<{ data: { id: string }[] }>("GET", "/v1/groups")).data[0]!.id,
    groups: () => call<{ data: { id: string; expiryReminderDays: number | null }[] }>("GET", "/v1/groups"),
    draft: (groupId: string, name: string, email?: string) =>
      call<Credential>("POST", "/v1/credentials", { groupId, recipient: { name, ...(email ? { email } : {}) } }),
    issue: (id: string) => call<Credential>("POST", `/v1/credentials/${id}/issue`),
    send: (id: string) => call<Credential>("POST", `/v1/credentials/${id}/send`, { deliveryMethod: "email" }),
    get: (id: string) => call<Credential>("GET", `/v1/credentials/${id}`),
  };
}

const row = (page: Page, name: string) => page.locator("tbody tr", { has: page.getByRole("link", { name, exact: true }) });

for (const [label, viewport] of [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test.describe(`at ${label} width`, () => {
    test.use({ viewport });

    test("send asks with counts, skips the emailed, survives a double click and a second tab; revoke with one reason", async ({
      page,
      server,
    }, testInfo) => {
      await signUp(page, server, newAccount(`Bulk School ${label}`));
      await createTemplate(page, server, "Course");
      const api = apiOf(server, await createToken(page, server, "tests"));
      const groupId = await api.groupId();
      const tag = randomUUID().slice(0, 8);
      const address = (who: string) => `${who}.${tag}@example.com`;
      const made = new Map<string, Credential>();
      for (const [name, email] of [
        ["Fresh One", address("fresh1")],
        ["Fresh Two", address("fresh2")],
        ["Old Mail", address("old")],
        ["No Address", undefined],
      ] as const)
        made.set(name, await api.issue((await api.draft(groupId, name, email)).id));
      made.set("Still Draft", await api.draft(groupId, "Still Draft", address("draft")));
      await api.send(made.get("Old Mail")!.id);
      await emailTo(server, address("old")); // delivered: the row reads "Emailed <day>"

      // The worker writes the message, then records it as sent: a page rendered in between still says
      // "Email queued", so the table is loaded again until the record is in.
      await expect(async () => {
        await page.goto(`${site(server)}/dashboard/credentials`);
        await expect(row(page, "Old Mail").getByTestId("emailed")).toHaveText(/^Emailed \d{1,2} [A-Z][a-z]{2}$/, { timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await expect(row(page, "Old Mail").getByRole("button", { name: "Send email" })).toHaveCount(0);
      await expect(row(page, "Old Mail").getByRole("button", { name: "Send again…" })).toBeVisible();
      await expect(row(page, "Fresh One").getByRole("button", { name: "Send email" })).toBeVisible();

      await page.getByLabel("Select all on this page").check();
      await page.getByRole("button", { name: "Send selected…" }).click();
      const confirmation = page.getByTestId("bulk-confirmation");
      await expect(confirmation.getByTestId("bulk-counts")).toHaveText(
        "2 will be emailed for the first time, 1 was already emailed: tick Send again to email it too.",
      );
      await expect(confirmation.getByTestId("bulk-refused").getByRole("listitem")).toHaveText([
        // In the table's order: newest first.
        "Still Draft: only issued credentials can be sent; this one is draft",
        "No Address: no recipient email address to send it to",
      ]);
      await expect(confirmation.getByRole("button", { name: "Send 2 emails" })).toBeVisible();
      await confirmation.getByLabel(/Send again to the 1 credential already emailed/).check();
      await expect(confirmation.getByRole("button", { name: "Send 3 emails" })).toBeVisible();
      await confirmation.getByLabel(/Send again to the 1 credential already emailed/).uncheck();
      await shot(page, testInfo, `bulk-send-confirmation-${label}`);
      // Nothing is queued by asking.
      expect(emailsMentioning(server, address("fresh1"))).toHaveLength(0);

      await confirmation.getByRole("button", { name: "Send 2 emails" }).dblclick();
      const outcome = page.getByTestId("bulk-outcome");
      await expect(outcome).toContainText("2 emails queued, 1 already emailed (not sent again), 2 refused:");
      await expect(outcome.getByTestId("bulk-outcome-refused").getByRole("listitem")).toHaveText([
        "Still Draft: Only issued credentials can be sent; this one is draft.",
        "No Address: This credential has no recipient email address to send it to.",
      ]);
      await shot(page, testInfo, `bulk-send-outcome-${label}`);
      for (const who of ["fresh1", "fresh2"]) await emailTo(server, address(who));
      await page.waitForTimeout(3_000); // a second email would have been written by now
      for (const who of ["fresh1", "fresh2", "old"]) expect(emailsMentioning(server, address(who)), who).toHaveLength(1);

      // Two tabs confirm "Send again" for the same row at once: one email, and the other tab says so.
      const second = await page.context().newPage();
      const tabs = [page, second];
      for (const tab of tabs) {
        await tab.goto(`${site(server)}/dashboard/credentials`);
        await tab.getByLabel("Select Old Mail").check();
        await tab.getByRole("button", { name: "Send selected…" }).click();
        await tab
          .getByTestId("bulk-confirmation")
          .getByLabel(/Send again/)
          .check();
      }
      await Promise.all(tabs.map((tab) => tab.getByTestId("bulk-confirmation").getByRole("button", { name: "Send 1 email" }).click()));
      const answers = await Promise.all(
        tabs.map(async (tab) => {
          await expect(tab.getByTestId("bulk-outcome")).toBeVisible();
          return tab.getByTestId("bulk-outcome").innerText();
        }),
      );
      expect(answers.filter((a) => a.startsWith("1 email queued."))).toHaveLength(1);
      expect(answers.filter((a) => a.startsWith("0 emails queued, 1 already emailed (not sent again)."))).toHaveLength(1);
      await second.close();
      await page.waitForTimeout(4_000);
      expect(emailsMentioning(server, address("old"))).toHaveLength(2);

      // Revoke: one reason for all, the count named, a draft refused with the reason.
      await page.goto(`${site(server)}/dashboard/credentials`);
      await page.getByLabel("Select Fresh One").check();
      await page.getByLabel("Select Fresh Two").check();
      await page.getByLabel("Select Still Draft").check();
      await page.getByRole("button", { name: "Revoke selected…" }).click();
      const revoke = page.getByTestId("bulk-confirmation");
      await expect(revoke.getByRole("heading")).toHaveText("Revoke 2 credentials?");
      await expect(revoke.getByTestId("bulk-refused").getByRole("listitem")).toHaveText([
        "Still Draft: A draft cannot be revoked (it was never issued); delete it instead.",
      ]);
      await revoke.getByLabel(/Reason for all of them/).fill("Course <withdrawn>");
      await shot(page, testInfo, `bulk-revoke-confirmation-${label}`);
      await revoke.getByRole("button", { name: "Revoke 2 credentials" }).click();
      await expect(outcome).toContainText("2 revoked, 1 refused:");
      await shot(page, testInfo, `bulk-revoke-outcome-${label}`);
      for (const name of ["Fresh One", "Fresh Two"])
        expect((await api.get(made.get(name)!.id)).revocationReason).toBe("Course <withdrawn>");
      expect((await api.get(made.get("Still Draft")!.id)).revokedAt).toBeNull();

      // Issuing every draft of a list filtered to drafts: the answer stays although the list is now empty.
      await page.goto(`${site(server)}/dashboard/credentials?status=draft`);
      await page.getByLabel("Select all on this page").check();
      await page.getByRole("button", { name: "Issue selected" }).click();
      await expect(outcome).toHaveText("1 issued.");
      await expect(page.getByText("No credentials match.")).toBeVisible();
      await shot(page, testInfo, `bulk-issue-filtered-${label}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  });
}

test("the template form's expiry reminder: a bad value is named next to the field and nothing is saved", async ({
  page,
  server,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, server, newAccount("Reminding School"));
  await page.goto(`${site(server)}/dashboard/templates`);
  await page.fill("#tpl-name", "Forklift Licence");
  await page.getByLabel("Classic Certificate").check();
  await page.fill("#tpl-remind", "400");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.locator("#tpl-remind-error")).toHaveText("must be at most 365 days");
  await expect(page.locator("#tpl-remind")).toHaveAttribute("aria-invalid", "true");
  await shot(page, testInfo, "template-reminder-error-phone");
  const api = apiOf(server, await createToken(page, server, "tests"));
  await expect.poll(async () => (await fetchGroups(server, api)).length).toBe(0);

  await page.goto(`${site(server)}/dashboard/templates`);
  await page.fill("#tpl-name", "Forklift Licence");
  await page.getByLabel("Classic Certificate").check();
  await page.fill("#tpl-remind", "30");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Template “Forklift Licence” created.")).toBeVisible();
  const [group] = await fetchGroups(server, api);
  expect(group!.expiryReminderDays).toBe(30);
});

async function fetchGroups(server: ServerInfo, api: ReturnType<typeof apiOf>) {
  return (await api.groups()).data;
}
