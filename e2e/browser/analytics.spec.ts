// The analytics funnel (docs/dashboard.md, Analytics) at a phone's 390x844 and a desktop's 1440x900:
// credentials issued and emailed, opened many times by one recipient, shared, checked by guests; the
// funnel counts each credential once per stage, names every stage in words, shows the period in UTC
// days, names a bad custom date next to its field, draws the series with its numbers in a table, and
// downloads a CSV named after the organization and the period, with user text made spreadsheet-safe.
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { createTemplate, createToken, emailTo, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { dashboardApi } from "../support/dashboard-api";

test.describe.configure({ timeout: 180_000 });

function apiOf(server: ServerInfo, token: string) {
  const { call } = dashboardApi(server, token);
  return {
    groups: () => call<{ data: { id: string; name: string }[] }>("GET", "/v1/groups"),
    issueSend: (groupId: string, name: string, email?: string) =>
      call<{ id: string }>("POST", "/v1/credentials/create-issue-send", { groupId, recipient: { name, ...(email ? { email } : {}) } }),
    issue: async (groupId: string, name: string) => {
      const draft = await call<{ id: string }>("POST", "/v1/credentials", { groupId, recipient: { name } });
      return call<{ id: string }>("POST", `/v1/credentials/${draft.id}/issue`);
    },
    event: (credentialId: string, eventType: string, triggeredBy: "recipient" | "guest") =>
      call("POST", "/v1/credential-interactions", { credentialId, eventType, triggeredBy, triggeredAt: new Date().toISOString() }),
  };
}

for (const [label, viewport] of [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test.describe(`at ${label} width`, () => {
    test.use({ viewport });

    test("the funnel counts credentials and people, not page loads, and downloads as CSV", async ({ page, server }, testInfo) => {
      await signUp(page, server, newAccount(`Funnel School ${label}`));
      await createTemplate(page, server, "Python Basics");
      await createTemplate(page, server, "=Formula Course");
      const api = apiOf(server, await createToken(page, server, "tests"));
      const groups = (await api.groups()).data;
      const python = groups.find((g) => g.name === "Python Basics")!.id;
      const formula = groups.find((g) => g.name === "=Formula Course")!.id;
      const tag = randomUUID().slice(0, 8);
      const ada = `ada.${tag}@example.com`;
      const a = await api.issueSend(python, "Ada Lovelace", ada);
      const a2 = await api.issueSend(formula, "Ada Lovelace", ada); // the same person, a second credential
      const b = await api.issueSend(python, "Bob Byron", `bob.${tag}@example.com`);
      await api.issue(python, "No Email");
      for (let i = 0; i < 5; i++) await api.event(a.id, "credential_viewed", "recipient"); // reloads
      await api.event(a.id, "credential_added_to_linkedin_profile", "recipient");
      await api.event(a2.id, "credential_viewed", "recipient");
      for (let i = 0; i < 3; i++) await api.event(b.id, "credential_verified", "guest");
      await api.event(b.id, "credential_viewed", "guest");
      await emailTo(server, ada);

      await page.goto(`${site(server)}/dashboard/analytics?period=7d`);
      await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "true");
      await expect(page.locator("[data-period]")).toContainText("UTC");
      const count = (stage: string, what = "credentials") => page.locator(`[data-stage=${stage}] [data-count=${what}]`);
      await expect(async () => {
        await page.reload();
        await expect(count("delivered")).toHaveText("3", { timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      await expect(count("issued")).toHaveText("4");
      await expect(count("issued", "recipients")).toHaveText("2");
      await expect(count("opened")).toHaveText("2");
      await expect(count("opened", "recipients")).toHaveText("1");
      await expect(count("shared")).toHaveText("1");
      await expect(count("verified")).toHaveText("1");
      await expect(page.locator("[data-stage=opened]")).toContainText("67% of the previous stage · 50% of issued");
      await expect(page.locator("[data-outcome=notSent]")).toContainText("Not emailed: 1");
      await expect(page.getByRole("region", { name: "Funnel per template" })).toContainText("=Formula Course");
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The series' gridlines are whole counts, each labelled once.
      for (const chart of await page.locator("svg[data-chart=series]").all()) {
        const ticks = await chart.locator("text[text-anchor=end]").allTextContents();
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(new Set(ticks).size).toBe(ticks.length);
      }
      await shot(page, testInfo, `analytics-funnel-${label}`);

      await page.getByText("The numbers, per day").click();
      await expect(page.getByRole("region", { name: "Credentials per day of issue" }).locator("tbody tr")).toHaveCount(7);
      await page.getByRole("region", { name: "Credentials per day of issue" }).scrollIntoViewIfNeeded();
      await shot(page, testInfo, `analytics-series-table-${label}`);

      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^analytics-funnel-school-[a-z0-9-]+-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), "utf8");
      expect(csv).toContain("All templates,,4,3,2,1,1,");
      expect(csv).toContain("Template,'=Formula Course,1,");
      expect(csv.split("\r\n").filter((l) => l.startsWith("Day,"))).toHaveLength(7);

      // A bad custom period is named next to its field, and no funnel is shown for it.
      await page.goto(`${site(server)}/dashboard/analytics?from=2026-05-02&to=2026-05-01`);
      await expect(page.locator("#from-error")).toHaveText("The start date must not be after the end date.");
      await expect(page.locator("#from")).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator("[data-stage]")).toHaveCount(0);

      // The credential's activity names each event in words.
      await page.goto(`${site(server)}/dashboard/credentials/${a.id}`);
      await expect(page.getByRole("row", { name: /Opened by the recipient/ }).first()).toBeVisible();
      await expect(page.getByRole("row", { name: /Added to the recipient's LinkedIn profile/ })).toBeVisible();
      await expect(page.locator("body")).not.toContainText("credential_viewed");
    });
  });
}
