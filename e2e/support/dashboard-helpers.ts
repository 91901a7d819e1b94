// What the dashboard browser specs share: a test with its own client address per context, accounts,
// sign-up and sign-in through the forms, API tokens made in the dashboard, screenshots attached to the
// report, and the emails the servers write as .eml files.
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { test as base, expect, SERVICE_VERSION } from "../fixtures";
import { emlFilesContaining, waitFor, type ParsedMail } from "./mail";
import type { ServerInfo } from "./state";
import { uniqueAddress } from "./wallet-helpers";

// Each browser context comes from an address of its own (the servers trust X-Forwarded-For), so the
// per-address sign-in limit of one test never throttles another.
export const test = base.extend<{ clientAddress: string }>({
  clientAddress: async ({}, use) => use(uniqueAddress()),
  extraHTTPHeaders: async ({ clientAddress }, use) => use({ "X-Forwarded-For": clientAddress }),
});

export { expect };

/** The canonical address (PUBLIC_URL's default), which session cookies and links are made for. */
export const site = (server: ServerInfo) => `http://localhost:${server.port}`;

export type Account = { name: string; email: string; password: string; organizationName: string };

export function newAccount(organizationName = `Org ${randomUUID().slice(0, 8)}`): Account {
  return { name: "Grace Hopper", email: `grace.${randomUUID()}@example.com`, password: "correct horse battery", organizationName };
}

/** A full-page screenshot, kept in the test's output directory and attached to the report. */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

export async function fillSignUp(page: Page, account: Account) {
  await page.fill("#name", account.name);
  await page.fill("#email", account.email);
  await page.fill("#password", account.password);
  await page.fill("#organizationName", account.organizationName);
  await page.getByRole("button", { name: "Create account" }).click();
}

export async function signUp(page: Page, server: ServerInfo, account: Account) {
  await page.goto(`${site(server)}/signup`);
  await fillSignUp(page, account);
  await page.waitForURL(`${site(server)}/dashboard`);
}

export async function signIn(page: Page, server: ServerInfo, email: string, password: string) {
  await page.goto(`${site(server)}/signin`);
  await page.fill("#email", email);
  await page.fill("#password", password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function createToken(page: Page, server: ServerInfo, name: string): Promise<string> {
  await page.goto(`${site(server)}/dashboard/tokens`);
  await page.fill("#token-name", name);
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^cis_[0-9A-Za-z]{40}$/);
  return token;
}

/** A template made through the templates page with the given starter designs. */
export async function createTemplate(page: Page, server: ServerInfo, name: string, designs: string[] = ["Classic Certificate"]) {
  await page.goto(`${site(server)}/dashboard/templates`);
  await page.fill("#tpl-name", name);
  for (const design of designs) await page.getByLabel(design).check();
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText(`Template “${name}” created.`)).toBeVisible();
}

function apiHeaders(token: string) {
  return { Authorization: `Bearer ${token}`, "Service-Version": SERVICE_VERSION, "X-Forwarded-Proto": "https" };
}

export async function apiStatus(server: ServerInfo, token: string, pathname = "/v1/groups"): Promise<number> {
  const response = await fetch(`${server.baseURL}${pathname}`, { headers: apiHeaders(token) });
  return response.status;
}

export async function apiGet<T>(server: ServerInfo, token: string, pathname: string): Promise<T> {
  const response = await fetch(`${server.baseURL}${pathname}`, { headers: apiHeaders(token) });
  expect(response.status, pathname).toBe(200);
  return (await response.json()) as T;
}

/** The emails the outbox wrote (the servers deliver to .eml files under DATA_DIR/mail) that mention `needle`. */
export function emailsMentioning(server: ServerInfo, needle: string): ParsedMail[] {
  return emlFilesContaining(path.join(server.dataDir, "mail"), needle).map((m) => m.mail);
}

/** The email the outbox wrote to this address, waited for. */
export function emailTo(server: ServerInfo, address: string): Promise<ParsedMail> {
  return waitFor(`an email to ${address}`, () => emailsMentioning(server, address).find((mail) => mail.to.includes(address)), 45_000);
}

/** The recipient's wallet link in a credential email. */
export function walletLinkIn(mailText: string): string | undefined {
  return /https?:\/\/\S+\/credentials\/[0-9a-f-]+\?recipient=true/.exec(mailText)?.[0];
}
