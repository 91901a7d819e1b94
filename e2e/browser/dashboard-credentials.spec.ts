// The dashboard's credentials table in Chromium: sorting by a column header (asc/desc, kept in the
// address, the same order the search API gives), an issue-date range filter, mistakes in the address
// shown as messages instead of errors, a page link of another sort falling back to page 1, and rows
// selected to be issued or sent together, with each refused row named and another organization's
// credentials out of reach even through a forged form.
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
import { uniqueAddress } from "../support/wallet-helpers";
import { dashboardApi } from "../support/dashboard-api";

test.describe.configure({ timeout: 120_000 });

type Credential = { id: string; status: string; issueDate: string; attributes: Record<string, string | null> };

/** The API as the organization's systems use it, with a token made in the dashboard. */
function apiOf(server: ServerInfo, token: string) {
  const { call } = dashboardApi(server, token);
  return {
    groupId: async () => (await call<{ data: { id: string }[] }>("GET", "/v1/groups")).data[0]!.id,
    draft: (groupId: string, name: string, extra: { email?: string; issueDate?: string } = {}) =>
      call<Credential>("POST", "/v1/credentials", {
        groupId,
        recipient: { name, ...(extra.email ? { email: extra.email } : {}) },
        ...(extra.issueDate ? { issueDate: extra.issueDate } : {}),
      }),
    issue: (id: string) => call<Credential>("POST", `/v1/credentials/${id}/issue`),
    get: (id: string) => call<Credential>("GET", `/v1/credentials/${id}`),
    search: (body: unknown) => call<{ data: Credential[] }>("POST", "/v1/credentials/search", body),
  };
}

/** A signed-up organization with one template and an API token. */
async function setUp(page: Page, server: ServerInfo, organizationName?: string) {
  await signUp(page, server, newAccount(organizationName));
  await createTemplate(page, server, "Course");
  const api = apiOf(server, await createToken(page, server, "tests"));
  return { api, groupId: await api.groupId() };
}

const names = (page: Page) => page.locator("tbody tr td:nth-child(2) a");
const row = (page: Page, name: string) => page.locator("tbody tr", { has: page.getByRole("link", { name, exact: true }) });

test("sorting by issue date, an issue-date range, and mistakes in the address", async ({ page, server }, testInfo) => {
  const { api, groupId } = await setUp(page, server, "Sorting School");
  // Created in this order, with issue dates in another order.
  const people = [
    { name: "Ann March", issueDate: "2025-03-10" },
    { name: "Ben January", issueDate: "2025-01-05" },
    { name: "Cat February", issueDate: "2025-02-20" },
    { name: "Dan December", issueDate: "2024-12-01" },
  ];
  for (const p of people) await api.draft(groupId, p.name, { issueDate: p.issueDate });

  await page.goto(`${site(server)}/dashboard/credentials`);
  // Default: newest first.
  await expect(names(page)).toHaveText(["Dan December", "Cat February", "Ben January", "Ann March"]);
  const issueHeader = page.getByRole("columnheader", { name: "Issue date" });
  await expect(issueHeader).not.toHaveAttribute("aria-sort");
  await expect(page.getByRole("columnheader", { name: "Created" })).toHaveAttribute("aria-sort", "descending");

  await issueHeader.getByRole("link").click();
  await expect(page).toHaveURL(/sort=issueDate&order=desc/);
  await expect(issueHeader).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByRole("columnheader", { name: "Created" })).not.toHaveAttribute("aria-sort");
  await expect(names(page)).toHaveText(["Ann March", "Cat February", "Ben January", "Dan December"]);

  await issueHeader.getByRole("link").click();
  await expect(page).toHaveURL(/sort=issueDate&order=asc/);
  await expect(issueHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(names(page)).toHaveText(["Dan December", "Ben January", "Cat February", "Ann March"]);
  await expect(page.locator("details")).toContainText(`"sort":{"property":"issueDate","order":"asc"}`);
  await shot(page, testInfo, "credentials-sorted-by-issue-date");

  // An issue-date range; filtering keeps the sort. The API, sent the body the page shows, agrees.
  await page.fill("#f-issuedFrom", "2025-01-01");
  await page.fill("#f-issuedTo", "2025-02-28");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect
    .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
    .toMatchObject({ issuedFrom: "2025-01-01", issuedTo: "2025-02-28", sort: "issueDate", order: "asc" });
  await expect(names(page)).toHaveText(["Ben January", "Cat February"]);
  const body = {
    filter: { issueDate: { gte: "2025-01-01", lte: "2025-02-28" } },
    sort: { property: "issueDate", order: "asc" },
    limit: 25,
  };
  await page.locator("details summary").click();
  await expect(page.locator("details pre")).toContainText(`-d '${JSON.stringify(body)}'`);
  expect((await api.search(body)).data.map((c) => c.attributes["recipient.name"])).toEqual(["Ben January", "Cat February"]);
  // Only a lower bound, sorted the other way.
  await page.goto(`${site(server)}/dashboard/credentials?issuedFrom=2025-02-20&sort=issueDate&order=desc`);
  await expect(names(page)).toHaveText(["Ann March", "Cat February"]);

  // Mistakes typed into the address: named, with the API's messages, instead of an error page.
  const response = await page.goto(`${site(server)}/dashboard/credentials?issuedFrom=2025-02-30&sort=name&hasEmail=maybe`);
  expect(response?.status()).toBe(200);
  const problems = page.getByTestId("search-problems");
  await expect(problems).toContainText('Issued from "2025-02-30": must be a real calendar date in YYYY-MM-DD form');
  await expect(problems).toContainText('Sort "name": must be one of: "id", "createdAt", "updatedAt", "issueDate", "expiryDate"');
  await expect(problems).toContainText('Email "maybe": must be "yes" or "no"');
  await expect(page.locator("#f-issuedFrom")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("tbody tr")).toHaveCount(0);
  await shot(page, testInfo, "credentials-bad-address");

  // Pages of two, in issue-date order; a page link made for another order starts again at page 1.
  await page.goto(`${site(server)}/dashboard/credentials?sort=issueDate&order=asc&limit=2`);
  await expect(names(page)).toHaveText(["Dan December", "Ben January"]);
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(names(page)).toHaveText(["Cat February", "Ann March"]);
  const cursor = new URL(page.url()).searchParams.get("cursor")!;
  await page.getByRole("link", { name: "← Previous" }).click();
  await expect(names(page)).toHaveText(["Dan December", "Ben January"]);
  await page.goto(`${site(server)}/dashboard/credentials?sort=issueDate&order=desc&limit=2&cursor=${encodeURIComponent(cursor)}`);
  await expect(page.getByText("This page link belongs to another search or sort; showing the first page.")).toBeVisible();
  await expect(names(page)).toHaveText(["Ann March", "Cat February"]);
  await page.goto(`${site(server)}/dashboard/credentials?cursor=garbage`);
  await expect(page.getByText("showing the first page")).toBeVisible();
  await expect(names(page)).toHaveCount(4);
});

test("Issue selected issues exactly the selected drafts and names the ones it could not issue", async ({ page, server }, testInfo) => {
  const { api, groupId } = await setUp(page, server);
  const drafts = new Map<string, Credential>();
  for (const name of ["Grace One", "Grace Two", "Grace Three", "Left Alone"]) drafts.set(name, await api.draft(groupId, name));

  await page.goto(`${site(server)}/dashboard/credentials`);
  const selectAll = page.getByLabel("Select all on this page");
  const count = page.getByTestId("selected-count");
  await expect(page.getByRole("button", { name: "Issue selected" })).toBeDisabled();
  await selectAll.check();
  await expect(count).toHaveText("4 selected");
  await selectAll.uncheck();
  await expect(count).toHaveText("0 selected");
  for (const name of ["Grace One", "Grace Two", "Grace Three"]) await page.getByLabel(`Select ${name}`).check();
  await expect(count).toHaveText("3 selected");
  await expect(selectAll).not.toBeChecked();
  await expect(selectAll).toHaveJSProperty("indeterminate", true);
  await shot(page, testInfo, "credentials-three-selected");

  await page.getByRole("button", { name: "Issue selected" }).click();
  await expect(page.getByTestId("bulk-outcome")).toHaveText("3 issued.");
  for (const name of ["Grace One", "Grace Two", "Grace Three"]) await expect(row(page, name)).toContainText("issued");
  await expect(row(page, "Left Alone")).toContainText("draft");
  await expect(count).toHaveText("0 selected");
  for (const [name, credential] of drafts)
    expect((await api.get(credential.id)).status, name).toBe(name === "Left Alone" ? "draft" : "issued");

  // Everything on the page again: only the draft is issued; the others are named with the API's reason.
  await selectAll.check();
  await page.getByRole("button", { name: "Issue selected" }).click();
  const outcome = page.getByTestId("bulk-outcome");
  await expect(outcome).toContainText("1 issued, 3 already issued.");
  await outcome.getByText("3 were left as they were").click();
  for (const name of ["Grace One", "Grace Two", "Grace Three"]) {
    await expect(outcome.getByRole("listitem").filter({ hasText: name })).toHaveText(`${name}: already issued`);
  }
  await expect(outcome.getByRole("listitem")).toHaveCount(3);
  expect((await api.get(drafts.get("Left Alone")!.id)).status).toBe("issued");
  await shot(page, testInfo, "credentials-issue-outcome");
});

test("a credential whose name the designs cannot draw: the detail page says why instead of a broken image; the wallet shows it as text", async ({
  page,
  server,
}, testInfo) => {
  // Ethiopic: no bundled font covers it (Hebrew, Arabic, Indic, Thai and emoji are drawn).
  const { api, groupId } = await setUp(page, server, "Addis Extension School");
  const credential = await api.issue((await api.draft(groupId, "ሰላም ዓለም")).id);

  await page.goto(`${site(server)}/dashboard/credentials/${credential.id}`);
  const previews = page.getByRole("region", { name: "Previews" });
  const notice = page.getByTestId("unsupported-preview");
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText("no bundled font can draw these characters: ሰ U+1230");
  await expect(notice).toContainText("[recipient.name]");
  await expect(previews.getByRole("img")).toHaveCount(0);
  await shot(page, testInfo, "credential-detail-unsupported-name");

  const [wallet] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: "Open wallet page" }).click()]);
  await expect(wallet.getByTestId("text-certificate").getByText("ሰላም ዓለም", { exact: true }).first()).toBeVisible();
  await expect(wallet.getByRole("region", { name: "Credential images" }).getByRole("img")).toHaveCount(0);
  await shot(wallet, testInfo, "wallet-unsupported-name");
});

test("Send selected queues the emails and names the row without an address", async ({ page, server }, testInfo) => {
  const { api, groupId } = await setUp(page, server);
  const tag = randomUUID().slice(0, 8);
  const first = `first.${tag}@example.com`;
  const second = `second.${tag}@example.com`;
  for (const [name, email] of [
    ["Mail First", first],
    ["Mail Second", second],
    ["No Address", undefined],
  ] as const) {
    await api.issue((await api.draft(groupId, name, { email })).id);
  }

  await page.goto(`${site(server)}/dashboard/credentials`);
  await page.getByLabel("Select all on this page").check();
  await page.getByRole("button", { name: "Send selected…" }).click();
  const confirmation = page.getByTestId("bulk-confirmation");
  await expect(confirmation.getByTestId("bulk-counts")).toHaveText("2 will be emailed for the first time.");
  await expect(confirmation.getByTestId("bulk-refused").getByRole("listitem")).toHaveText([
    "No Address: no recipient email address to send it to",
  ]);
  await confirmation.getByRole("button", { name: "Send 2 emails" }).click();
  const outcome = page.getByTestId("bulk-outcome");
  await expect(outcome).toContainText("2 emails queued, 1 refused:");
  await expect(outcome.getByRole("listitem")).toHaveText(["No Address: This credential has no recipient email address to send it to."]);
  await shot(page, testInfo, "credentials-send-outcome");
  // Addresses and the row buttons still fit a 1280 px window without sideways scrolling.
  expect(await page.locator("table").evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  for (const address of [first, second]) {
    const mail = await emailTo(server, address);
    expect(mail.text).toContain(address === first ? "Mail First" : "Mail Second");
  }
  expect(emailsMentioning(server, first)).toHaveLength(1);
  expect(emailsMentioning(server, second)).toHaveLength(1);
});

test("a forged id of another organization in the bulk form is not found, and nothing of theirs changes", async ({
  browser,
  page,
  server,
}) => {
  const { api, groupId } = await setUp(page, server, "Org A");
  const mine = await api.draft(groupId, "My Draft");
  const alsoMine = await api.draft(groupId, "My Other Draft");

  const other = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const pageB = await other.newPage();
  const b = await setUp(pageB, server, "Org B");
  const theirDraft = await b.api.draft(b.groupId, "Their Draft");
  const theirAddress = `theirs.${randomUUID().slice(0, 8)}@example.com`;
  const theirIssued = await b.api.issue((await b.api.draft(b.groupId, "Their Issued", { email: theirAddress })).id);
  await other.close();

  // A's own form, one checkbox carrying B's draft's id.
  await page.goto(`${site(server)}/dashboard/credentials`);
  await page.getByLabel("Select My Draft", { exact: true }).check();
  await page.getByLabel("Select My Other Draft").check();
  await page.getByLabel("Select My Other Draft").evaluate((input: HTMLInputElement, id) => (input.value = id), theirDraft.id);
  await page.getByRole("button", { name: "Issue selected" }).click();
  const outcome = page.getByTestId("bulk-outcome");
  await expect(outcome).toContainText("1 issued, 1 refused:");
  await expect(outcome.getByRole("listitem")).toHaveText([`${theirDraft.id}: Credential not found.`]);
  expect((await b.api.get(theirDraft.id)).status).toBe("draft");
  expect((await api.get(mine.id)).status).toBe("issued");
  expect((await api.get(alsoMine.id)).status).toBe("draft");

  // The same for sending B's issued credential: not found, and no email goes to B's recipient.
  await page.reload();
  await page.getByLabel("Select My Draft", { exact: true }).check();
  await page.getByLabel("Select My Draft", { exact: true }).evaluate((input: HTMLInputElement, id) => (input.value = id), theirIssued.id);
  await page.getByRole("button", { name: "Send selected…" }).click();
  const confirmation = page.getByTestId("bulk-confirmation");
  await expect(confirmation.getByTestId("bulk-refused").getByRole("listitem")).toHaveText([`${theirIssued.id}: Credential not found.`]);
  await expect(confirmation.getByRole("button", { name: "Nothing to send" })).toBeDisabled();
  await page.waitForTimeout(2_000); // the mail worker writes queued email within a second
  expect(emailsMentioning(server, theirAddress)).toHaveLength(0);
});
