// Every kind of page in Chromium under the server's security headers (lib/http-server/security-headers.ts):
// no Content-Security-Policy violation anywhere (Next's inline scripts run on their nonce, the pages
// work), framing refused except on the wallet page, and the headers themselves on each page.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, BrowserContext, Page, Response } from "@playwright/test";
import { makePng } from "../support/api-helpers";
import { createToken, expect, newAccount, signUp, site, test } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { issueCredential, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

type Violation = { directive: string; blocked: string; source: string };

/** Collects CSP violations of every page of the context: the DOM's events and Chromium's console reports. */
async function watchViolations(context: BrowserContext, page: Page): Promise<() => Promise<Violation[]>> {
  await context.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __cspViolations: Violation[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}` }),
    );
  });
  const fromConsole: Violation[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text()))
      fromConsole.push({ directive: "console", blocked: message.text(), source: page.url() });
  });
  return async () => [
    ...fromConsole,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? [])),
  ];
}

function expectPageHeaders(response: Response | null, what: string, framing: "none" | "any") {
  expect(response, what).not.toBeNull();
  const headers = response!.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, what).toContain(framing === "none" ? "frame-ancestors 'none'" : "frame-ancestors *");
  if (framing === "none") expect(headers["x-frame-options"], what).toBe("DENY");
  else expect(headers["x-frame-options"], what).toBeUndefined();
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  // The test servers are reached over plain HTTP from loopback: no HSTS.
  expect(headers["strict-transport-security"], what).toBeUndefined();
}

/** Opens `url`, checks its headers and lets its scripts run (a violation would be collected meanwhile). */
async function visit(page: Page, url: string, framing: "none" | "any" = "none") {
  const response = await page.goto(url, { waitUntil: "load" });
  expect(response?.status(), url).toBeLessThan(500);
  expectPageHeaders(response, url, framing);
  await expectScriptsNonced(page, response);
  // Hydration and the requests it makes; not "networkidle": the wallet's keepalive events never settle.
  await page.waitForTimeout(500);
}

/** Each script tag the server wrote carries the response's nonce (Next put it there). Scripts Next's
 *  own code adds later need none ('strict-dynamic'), so the server's HTML is what is checked. */
async function expectScriptsNonced(page: Page, response: Response | null) {
  const nonce = /'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"] ?? "")![1];
  const tags = (await response!.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length, page.url()).toBeGreaterThan(0);
  for (const tag of tags) expect(tag, page.url()).toContain(`nonce="${nonce}"`);
}

async function apiFor(
  server: ServerInfo,
  token: string,
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
) {
  return playwright.request.newContext({
    baseURL: server.baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${token}`, "Service-Version": "2022-10-26", "X-Forwarded-Proto": "https" },
  });
}

test("the wallet page, public pages and 404s: headers, working scripts, no CSP violation", async ({ page, context, api, server }) => {
  const violations = await watchViolations(context, page);
  const group = await walletGroup(api, { badge: true });
  const credential = await issueCredential(api, group.id, { name: "Ada Lovelace", email: "ada.csp@example.com" });

  // The wallet page may be embedded elsewhere (its embed snippet).
  const wallet = await page.goto(walletUrl(server, credential.publicId));
  expectPageHeaders(wallet, "wallet", "any");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectScriptsNonced(page, wallet);
  // Its images (the previews) load under img-src.
  const images = page.locator("main img");
  expect(await images.count()).toBeGreaterThan(0);
  for (const img of await images.all())
    await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

  await visit(page, `${site(server)}/credentials/00000000-0000-0000-0000-000000000000`, "any");
  await visit(page, `${site(server)}/`);
  await visit(page, `${site(server)}/docs`);
  await visit(page, `${site(server)}/signup`);
  await visit(page, `${site(server)}/no-such-page`);

  // Sign-in: the form is a client component; a wrong password answers on the page only if it runs.
  const signin = await page.goto(`${site(server)}/signin`);
  expectPageHeaders(signin, "signin", "none");
  await expectScriptsNonced(page, signin);
  await page.fill("#email", "nobody@example.com");
  await page.fill("#password", "not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toBeVisible();

  expect(await violations()).toEqual([]);
});

test("the dashboard's pages and the design editor: headers, no CSP violation", async ({ page, context, server, playwright }) => {
  const violations = await watchViolations(context, page);
  await signUp(page, server, newAccount("Policy Academy"));
  const token = await createToken(page, server, "csp");
  const api = await apiFor(server, token, playwright);
  try {
    const group = await walletGroup(api);
    const credential = await issueCredential(api, group.id, { name: "Grace Hopper", email: "grace.csp@example.com" });
    const designId = ((await (await api.get("/v1/designs")).json()) as { data: { id: string }[] }).data[0]!.id;

    for (const path of [
      "/dashboard",
      "/dashboard/credentials",
      `/dashboard/credentials/${credential.id}`,
      "/dashboard/credentials/import",
      "/dashboard/designs",
      "/dashboard/templates",
      `/dashboard/templates/${group.id}`,
      "/dashboard/tokens",
      "/dashboard/settings",
      "/dashboard/analytics",
    ]) {
      await visit(page, `${site(server)}${path}`);
    }

    // The editor: the live preview (a server action and a fresh image) and an uploaded image.
    const editor = await page.goto(`${site(server)}/dashboard/designs/${designId}`);
    expectPageHeaders(editor, "editor", "none");
    await expectScriptsNonced(page, editor);
    const stage = page.getByTestId("design-stage");
    const picture = stage.getByRole("img");
    const before = await picture.getAttribute("src");
    const name = stage.getByRole("button", { name: "Text: [recipient.name]" });
    const box = (await name.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => picture.getAttribute("src")).not.toBe(before);
    await expect.poll(() => picture.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await page.setInputFiles("#design-image", { name: "Seal.png", mimeType: "image/png", buffer: makePng(120, 120, [29, 78, 216, 255]) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByLabel("Image", { exact: true })).toHaveValue("seal");
    await expect.poll(() => picture.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  } finally {
    await api.dispose();
  }
  expect(await violations()).toEqual([]);
});

test("framing: another site may embed the wallet page, not the dashboard or sign-in", async ({ page, api, server }) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Embedded Ada", email: "ada.embed@example.com" });
  // Another site: a page of its own origin, with no policy, framing both.
  const html = `<!doctype html><iframe id="wallet" src="${walletUrl(server, credential.publicId)}"></iframe><iframe id="signin" src="${site(server)}/signin"></iframe>`;
  const host = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end(html));
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  try {
    await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/`);
    await expect(page.frameLocator("#wallet").getByText("Embedded Ada").first()).toBeVisible();
    // A refused frame shows the browser's error page instead of the form; give it the time the wallet took.
    await page.waitForTimeout(1500);
    await expect(page.frameLocator("#signin").locator("#email")).toHaveCount(0);
  } finally {
    host.close();
  }
});
