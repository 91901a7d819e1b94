// The public wallet page (/credentials/<publicId>) in Chromium, as a recipient opens it from the email and
// as a guest (an employer) opens a shared link: what it shows, each action and the one event it records,
// the recipient mark, 404s, sharing metadata, keyboard use, and screenshots at desktop and phone widths.
//
// The wallet endpoints are rate-limited per client address and the test servers trust X-Forwarded-For
// (TRUST_PROXY=1), so every browser context here sends an address of its own: parallel tests do not share
// one bucket. Pages are opened at the canonical URL (PUBLIC_URL's default, http://localhost:<port>), the
// address the email links to.
import encodePngChunks from "png-chunks-encode";
import extractPngChunks from "png-chunks-extract";
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import type { Browser, BrowserContext, Locator, Page, Request, TestInfo } from "@playwright/test";
import { embeddedCredentialOf } from "../support/pdf-attachment";
import { test as base, expect } from "../fixtures";
import { expectStatus, makePng } from "../support/api-helpers";
import { freePort } from "../support/servers";
import {
  credentialPreviews,
  draftCredential,
  emailedWalletLink,
  expectEvents,
  expiredCredential,
  interactionsOf,
  isoDate,
  issueCredential,
  scheduledCredential,
  uniqueAddress,
  walletGroup,
  walletUrl,
} from "../support/wallet-helpers";

const test = base.extend<{ clientAddress: string }>({
  clientAddress: async ({}, use) => use(uniqueAddress()),
  extraHTTPHeaders: async ({ clientAddress }, use) => use({ "X-Forwarded-For": clientAddress }),
});

// Each test renders previews and waits on a server shared with every other worker.
test.describe.configure({ timeout: 90_000 });

/** Another browser (profile): its own local storage, its own client address. */
async function freshContext(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({ ...options, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress(), ...(options?.extraHTTPHeaders ?? {}) } });
}

/** Watches the requests pages of `context` make to the wallet's own endpoints. */
function watchWalletRequests(context: BrowserContext) {
  const pending = new Set<Request>();
  const sent: { url: string; body: Record<string, unknown>; headers: Record<string, string> }[] = [];
  context.on("request", (r) => {
    if (!new URL(r.url()).pathname.startsWith("/api/wallet/")) return;
    pending.add(r);
    sent.push({ url: r.url(), body: (r.postDataJSON() ?? {}) as Record<string, unknown>, headers: r.headers() });
  });
  // The page sends its events with `keepalive`; Chromium reports such responses' headers but never their
  // end, so a request counts as answered once its response arrives.
  context.on("response", (r) => pending.delete(r.request()));
  context.on("requestfailed", (r) => pending.delete(r));
  return {
    sent,
    /** Every wallet request answered (so the event list can be compared exactly). */
    settled: () => expect.poll(() => pending.size, { message: "wallet requests in flight" }).toBe(0),
  };
}

/** Runs `action` and waits for the page's POST /api/wallet/events of `eventType` to be answered 201 (its body is unreadable: keepalive). */
async function recorded(page: Page, eventType: string, action: () => Promise<unknown>, triggeredBy?: "recipient" | "guest") {
  const response = page.waitForResponse((r) => {
    if (new URL(r.url()).pathname !== "/api/wallet/events" || r.request().method() !== "POST") return false;
    return (r.request().postDataJSON() as { eventType?: string } | null)?.eventType === eventType;
  });
  await action();
  const res = await response;
  expect(res.status(), `POST /api/wallet/events ${eventType}`).toBe(201);
  const sent = res.request().postDataJSON() as Record<string, unknown>;
  expect(Object.keys(sent).sort(), "the page sends publicId, eventType and triggeredBy only").toEqual([
    "eventType",
    "publicId",
    "triggeredBy",
  ]);
  expect(sent.eventType).toBe(eventType);
  if (triggeredBy) expect(sent.triggeredBy).toBe(triggeredBy);
  return sent;
}

/** Stubs every https page (the share networks: the machine has no internet) and remembers what was asked for. */
async function stubNetworks(context: BrowserContext): Promise<string[]> {
  const requested: string[] = [];
  await context.route(/^https:\/\//, (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title><p>network stub</p>" });
  });
  return requested;
}

/** dt → dd text of a definition list. */
/** A baked PNG split into the credential's text (its iTXt `openbadgecredential` chunk) and the image without that chunk. */
function bakedCredentialOf(png: Buffer): { text: string; rest: Buffer } {
  const chunks = extractPngChunks(png);
  const isBaked = (c: { name: string; data: Uint8Array }) =>
    c.name === "iTXt" && Buffer.from(c.data).subarray(0, 20).toString("latin1") === "openbadgecredential\0";
  const baked = chunks.filter(isBaked);
  expect(baked, "one openbadgecredential chunk").toHaveLength(1);
  return {
    text: Buffer.from(baked[0]!.data).subarray(24).toString("utf8"),
    rest: Buffer.from(encodePngChunks(chunks.filter((c) => !isBaked(c)))),
  };
}

async function definitionList(list: Locator): Promise<Record<string, string>> {
  return list.evaluate((dl) => {
    const out: Record<string, string> = {};
    let key: string | null = null;
    for (const el of Array.from(dl.children)) {
      if (el.tagName === "DT") key = (el.textContent ?? "").trim();
      else if (el.tagName === "DD" && key !== null) out[key] = (el.textContent ?? "").trim();
    }
    return out;
  });
}

const longDate = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

/** No `recipient` query parameter, however deeply the URL is encoded inside another. */
function noRecipientParam(u: string) {
  let text = u;
  for (let i = 0; i < 3; i++) text = decodeURIComponent(text);
  expect(text, u).not.toMatch(/[?&]recipient=/i);
}

async function imagesLoaded(page: Page) {
  await expect
    .poll(
      () =>
        page
          .locator("img")
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)),
      {
        message: "all images loaded",
        timeout: 30_000,
      },
    )
    .toBe(true);
}

/** Gives the organization a logo through the CLI (`npm run cli -- org logo <slug> <file>`). */
async function setLogo(
  cli: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>,
  slug: string,
  testInfo: TestInfo,
) {
  const file = testInfo.outputPath("logo.png");
  writeFileSync(file, makePng(150, 50, [10, 102, 194, 255]));
  const result = await cli(["org", "logo", slug, file]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(name);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

// ---- recipient and guest --------------------------------------------------------------------------

test("the recipient opens the email link: viewed as recipient, parameter gone, reload still recipient; another browser is a guest", async ({
  api,
  org,
  server,
  page,
  context,
  browser,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Ada Lovelace", email: `ada.${randomUUID().slice(0, 8)}@example.com` });
  const canonical = walletUrl(server, credential.publicId);
  const link = await emailedWalletLink(server, credential);
  expect(link).toBe(`${canonical}?recipient=true`);
  const requests = watchWalletRequests(context);

  const response = await page.goto(link);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(group.name);
  await expect.poll(() => page.url(), { message: "?recipient=true leaves the address bar" }).toBe(canonical);
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/recipient"]);

  // The page holds no API token and sends none.
  expect(await page.content()).not.toContain(org.token);
  for (const r of requests.sent) {
    expect(r.headers["authorization"]).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain(org.token);
  }

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(group.name);
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/recipient", "credential_viewed/recipient"]);

  // The same browser, the link without the parameter (a bookmark, a shared copy): still the recipient.
  const second = await context.newPage();
  await second.goto(canonical);
  await expect(second.getByRole("heading", { level: 1 })).toHaveText(group.name);
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/recipient", "credential_viewed/recipient", "credential_viewed/recipient"]);

  // The mark is for this credential only: another credential in the same browser is a guest's view.
  const other = await issueCredential(api, group.id, { name: "Charles Babbage" });
  await second.goto(walletUrl(server, other.publicId));
  await expect(second.getByText("Charles Babbage", { exact: true })).toBeVisible();
  await requests.settled();
  await expectEvents(api, other.id, ["credential_viewed/guest"]);

  // Another browser (an employer opening the shared link): a guest.
  const employer = await freshContext(browser);
  const employerRequests = watchWalletRequests(employer);
  const guestPage = await employer.newPage();
  await guestPage.goto(canonical);
  await expect(guestPage.getByRole("heading", { level: 1 })).toHaveText(group.name);
  await employerRequests.settled();
  await expectEvents(api, credential.id, [
    "credential_viewed/recipient",
    "credential_viewed/recipient",
    "credential_viewed/recipient",
    "credential_viewed/guest",
  ]);
  await employer.close();
});

test("without the parameter a visitor is a guest; with it, no link on the page carries it", async ({ api, server, page, context }) => {
  const group = await walletGroup(api, { learningEventUrl: "https://learn.example.com/course" });
  const credential = await issueCredential(api, group.id, { name: "Grace Hopper" });
  const canonical = walletUrl(server, credential.publicId);
  const requests = watchWalletRequests(context);
  await page.goto(canonical);
  await expect(page.getByText("Grace Hopper", { exact: true })).toBeVisible();
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/guest"]);

  // Other query parameters survive; only `recipient` leaves the address bar.
  await page.goto(`${canonical}?utm_source=email&recipient=true`);
  await expect.poll(() => page.url()).toBe(`${canonical}?utm_source=email`);
  await expect(page.getByTestId("recipient-tools")).toBeVisible();
  const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs.length).toBeGreaterThan(10);
  for (const href of hrefs) noRecipientParam(href);
  for (const content of await page
    .locator("meta[content], link[href]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("content") ?? e.getAttribute("href") ?? ""))) {
    noRecipientParam(content);
  }
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/guest", "credential_viewed/recipient"]);
});

// ---- sharing --------------------------------------------------------------------------------------

type NetworkCheck = { network: string; name: RegExp; check: (u: URL, canonical: string, png: string) => void };

const param = (u: URL, key: string) => u.searchParams.get(key) ?? "";

const NETWORKS: NetworkCheck[] = [
  {
    network: "linkedin",
    name: /^LinkedIn$/,
    check: (u, c) => {
      expect(u.hostname).toMatch(/(^|\.)linkedin\.com$/);
      expect(u.pathname).toBe("/sharing/share-offsite/");
      expect(param(u, "url")).toBe(c);
    },
  },
  {
    network: "facebook",
    name: /facebook/i,
    check: (u, c) => {
      expect(u.hostname).toMatch(/(^|\.)facebook\.com$/);
      expect(u.pathname).toMatch(/^\/sharer(\/sharer)?\.php$/);
      expect(param(u, "u")).toBe(c);
    },
  },
  {
    network: "twitter",
    name: /twitter|^X$/i,
    check: (u, c) => {
      expect(u.hostname).toMatch(/^(www\.)?(twitter|x)\.com$/);
      expect(u.pathname).toMatch(/^\/intent\/(tweet|post)$/);
      expect(param(u, "url") || param(u, "text")).toContain(c);
    },
  },
  {
    network: "messenger",
    name: /messenger/i,
    check: (u, c) => {
      expect(u.protocol).toBe("fb-messenger:");
      expect(u.href).toMatch(/^fb-messenger:\/\/share\/?\?/);
      expect(param(u, "link")).toBe(c);
    },
  },
  {
    network: "whatsapp",
    name: /whatsapp/i,
    check: (u, c) => {
      expect(u.hostname).toMatch(/^(wa\.me|api\.whatsapp\.com)$/);
      expect(param(u, "text")).toContain(c);
    },
  },
  {
    network: "pinterest",
    name: /pinterest/i,
    check: (u, c, png) => {
      expect(u.hostname).toMatch(/^(www\.)?pinterest\.com$/);
      expect(u.pathname).toBe("/pin/create/button/");
      expect(param(u, "url")).toBe(c);
      expect(param(u, "media"), "Pinterest pins the preview image").toBe(png);
    },
  },
  {
    network: "telegram",
    name: /telegram/i,
    check: (u, c) => {
      expect(u.hostname).toBe("t.me");
      expect(u.pathname).toBe("/share/url");
      expect(param(u, "url")).toBe(c);
    },
  },
  {
    network: "weibo",
    name: /weibo/i,
    check: (u, c) => {
      expect(u.hostname).toBe("service.weibo.com");
      expect(u.pathname).toBe("/share/share.php");
      expect(param(u, "url")).toBe(c);
    },
  },
];

test("each of the 8 share buttons opens its network's share URL for the canonical link and records exactly one event", async ({
  api,
  server,
  page,
  context,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Katherine Johnson" });
  const canonical = walletUrl(server, credential.publicId);
  const [preview] = await credentialPreviews(api, credential.id);
  const requested = await stubNetworks(context);
  const requests = watchWalletRequests(context);

  await recorded(page, "credential_viewed", () => page.goto(`${canonical}?recipient=true`), "recipient");
  await expect.poll(() => page.url()).toBe(canonical);
  const share = page.getByRole("region", { name: "Share" });

  const expected = ["credential_viewed/recipient"];
  for (const n of NETWORKS) {
    await test.step(n.network, async () => {
      const link = share.getByRole("link", { name: n.name });
      await expect(link).toHaveCount(1);
      await expect(link).toBeVisible();
      const href = (await link.getAttribute("href"))!;
      noRecipientParam(href);
      n.check(new URL(href), canonical, preview!.png);
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toContain("noopener");

      if (n.network === "messenger") {
        // An app link: nothing a desktop browser can open; the click still records the share.
        const opened = context.waitForEvent("page", { timeout: 3000 }).catch(() => null);
        await recorded(page, "credential_shared_to_messenger", () => link.click(), "recipient");
        await (await opened)?.close();
      } else {
        const popupPromise = context.waitForEvent("page");
        await recorded(page, `credential_shared_to_${n.network}`, () => link.click(), "recipient");
        const popup = await popupPromise;
        await popup.waitForURL((u) => u.protocol === "https:");
        expect(popup.url()).toBe(new URL(href).href);
        n.check(new URL(popup.url()), canonical, preview!.png);
        noRecipientParam(popup.url());
        await popup.close();
      }
      expected.push(`credential_shared_to_${n.network}/recipient`);
    });
  }
  expect(requested).toHaveLength(7);
  for (const u of requested) noRecipientParam(u);
  await requests.settled();
  await expectEvents(api, credential.id, expected);
  // The wallet page itself stayed where it was.
  expect(page.url()).toBe(canonical);
});

test("Add to LinkedIn profile: linkedin.com/profile/add with name, organization, issue and expiry month, URL and id; one event", async ({
  api,
  org,
  server,
  page,
  context,
}) => {
  const group = await walletGroup(api);
  const expiryDate = isoDate(400);
  const credential = await issueCredential(api, group.id, { name: "Dorothy Vaughan" }, { expiryDate });
  const canonical = walletUrl(server, credential.publicId);
  await stubNetworks(context);
  const requests = watchWalletRequests(context);
  await recorded(page, "credential_viewed", () => page.goto(`${canonical}?recipient=true`));

  const link = page.getByRole("link", { name: "Add to LinkedIn profile" });
  await expect(link).toBeVisible();
  const popupPromise = context.waitForEvent("page");
  await recorded(page, "credential_added_to_linkedin_profile", () => link.click(), "recipient");
  const popup = await popupPromise;
  await popup.waitForURL((u) => u.protocol === "https:");
  const u = new URL(popup.url());
  expect(u.hostname).toBe("www.linkedin.com");
  expect(u.pathname).toBe("/profile/add");
  const p = Object.fromEntries(u.searchParams);
  expect(p).toMatchObject({
    startTask: "CERTIFICATION_NAME",
    name: group.name,
    organizationName: `E2E ${org.slug}`,
    certUrl: canonical,
    certId: credential.id,
  });
  expect(Number(p.issueYear)).toBe(Number(credential.issueDate.slice(0, 4)));
  expect(Number(p.issueMonth)).toBe(Number(credential.issueDate.slice(5, 7)));
  expect(Number(p.expirationYear)).toBe(Number(expiryDate.slice(0, 4)));
  expect(Number(p.expirationMonth)).toBe(Number(expiryDate.slice(5, 7)));
  noRecipientParam(popup.url());
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/recipient", "credential_added_to_linkedin_profile/recipient"]);

  // Without an expiry date: no expiration fields.
  const lasting = await issueCredential(api, group.id, { name: "Mary Jackson" });
  await page.goto(`${walletUrl(server, lasting.publicId)}?recipient=true`);
  const href = new URL((await page.getByRole("link", { name: "Add to LinkedIn profile" }).getAttribute("href"))!);
  expect(href.searchParams.get("certUrl")).toBe(walletUrl(server, lasting.publicId));
  expect(href.searchParams.get("certId")).toBe(lasting.id);
  expect(href.searchParams.has("expirationYear")).toBe(false);
  expect(href.searchParams.has("expirationMonth")).toBe(false);
});

// ---- downloads, copy, verify ----------------------------------------------------------------------

test("download PNG and PDF: valid files with a person's file name, the previews' bytes (the PNG with the signed credential baked in), one event each", async ({
  api,
  server,
  page,
  context,
}) => {
  const group = await walletGroup(api, { name: "Data Analysis Fundamentals" });
  const credential = await issueCredential(api, group.id, { name: "Ada Lovelace" });
  const [preview] = await credentialPreviews(api, credential.id);
  const requests = watchWalletRequests(context);
  await recorded(page, "credential_viewed", () => page.goto(`${walletUrl(server, credential.publicId)}?recipient=true`), "recipient");

  for (const format of ["png", "pdf"] as const) {
    await test.step(format, async () => {
      // Named per design for screen readers; the visible text is the format.
      const link = page.getByRole("link", { name: `Download ${preview!.name} as ${format.toUpperCase()}`, exact: true });
      await expect(link).toHaveText(format.toUpperCase());
      const downloadPromise = page.waitForEvent("download");
      await recorded(page, "credential_downloaded", () => link.click(), "recipient");
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe(`Data Analysis Fundamentals - Ada Lovelace.${format}`);
      const bytes = readFileSync(await download.path());
      if (format === "png") {
        expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), "PNG signature").toBe(true);
        expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
        expect(bytes.readUInt32BE(16), "width").toBeGreaterThan(100);
        expect(bytes.readUInt32BE(20), "height").toBeGreaterThan(100);
      } else {
        expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        expect(bytes.subarray(-1024).toString("latin1")).toContain("%%EOF");
      }
      const fromApi = Buffer.from(await (await page.request.get(preview![format])).body());
      if (format === "png") {
        // The PNG is the preview with the signed credential baked in (Open Badges 3.0): nothing else changed.
        const baked = bakedCredentialOf(bytes);
        expect(baked.rest.equals(fromApi), "the downloaded PNG is the preview plus the baked credential").toBe(true);
        expect(baked.text).toBe(await (await page.request.get(`/credentials/${credential.publicId}/credential.json`)).text());
      } else {
        // The PDF is the preview with the signed credential embedded as the associated file credential.json.
        const embedded = await embeddedCredentialOf(bytes);
        expect(embedded, "the downloaded PDF carries credential.json").not.toBeNull();
        expect(embedded!.relationship).toBe("/Data");
        expect(embedded!.json).toBe(await (await page.request.get(`/credentials/${credential.publicId}/credential.json`)).text());
        expect(bytes.length, "the preview plus the attachment").toBeGreaterThan(fromApi.length);
      }
    });
  }
  // A download does not navigate away.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(group.name);
  expect(page.url()).toBe(walletUrl(server, credential.publicId));
  await requests.settled();
  await expectEvents(api, credential.id, [
    "credential_viewed/recipient",
    "credential_downloaded/recipient",
    "credential_downloaded/recipient",
  ]);
});

test("two designs: previews in group order, and each design downloads under its own name", async ({ api, server, page, context }) => {
  const group = await walletGroup(api, { name: "Cloud Basics", badge: true });
  const credential = await issueCredential(api, group.id, { name: "Alan Turing" });
  const previews = await credentialPreviews(api, credential.id);
  expect(previews).toHaveLength(2);
  const requests = watchWalletRequests(context);
  await page.goto(`${walletUrl(server, credential.publicId)}?recipient=true`);
  const images = page.getByRole("region", { name: "Credential images" }).getByRole("img");
  await expect(images).toHaveCount(2);
  // The 800 px variant by default, the full size last in the srcset.
  expect(await images.evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src")))).toEqual(previews.map((p) => `${p.png}?w=800`));
  for (const [i, p] of previews.entries()) expect(await images.nth(i).getAttribute("srcset")).toContain(`${p.png} 1600w`);
  await imagesLoaded(page);

  const pngs = page.getByRole("link", { name: /^Download .* as PNG$/ });
  await expect(pngs).toHaveCount(2);
  for (const [i, p] of previews.entries()) await expect(pngs.nth(i)).toHaveAccessibleName(`Download ${p.name} as PNG`);
  const names: string[] = [];
  for (let i = 0; i < 2; i++) {
    const downloadPromise = page.waitForEvent("download");
    await recorded(page, "credential_downloaded", () => pngs.nth(i).click());
    const download = await downloadPromise;
    names.push(download.suggestedFilename());
    expect(
      Buffer.from(await (await page.request.get(previews[i]!.png)).body()).equals(
        bakedCredentialOf(readFileSync(await download.path())).rest,
      ),
    ).toBe(true);
  }
  expect(names[0]).toBe(`Cloud Basics - Alan Turing - ${previews[0]!.name}.png`);
  expect(names[1]).toBe(`Cloud Basics - Alan Turing - ${previews[1]!.name}.png`);
  await requests.settled();
  await expectEvents(api, credential.id, [
    "credential_viewed/recipient",
    "credential_downloaded/recipient",
    "credential_downloaded/recipient",
  ]);
});

test("copy link: the clipboard holds the canonical URL without the parameter; one event", async ({ api, server, page, context }) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Hedy Lamarr" });
  const canonical = walletUrl(server, credential.publicId);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(canonical).origin });
  const requests = watchWalletRequests(context);
  await recorded(page, "credential_viewed", () => page.goto(`${canonical}?recipient=true`), "recipient");
  await page.evaluate(() => navigator.clipboard.writeText("something else"));

  await recorded(page, "credential_link_copied", () => page.getByRole("button", { name: /copy link/i }).click(), "recipient");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(canonical);
  await expect(page.getByRole("button", { name: /copied/i })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(/copied/i);
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/recipient", "credential_link_copied/recipient"]);
});

test("verify: the panel shows the verifier's verdict (focused), issuer, recipient, credential, dates, each check and the time of the check; one event", async ({
  api,
  org,
  server,
  page,
  context,
}) => {
  const group = await walletGroup(api);
  const expiryDate = isoDate(365);
  const credential = await issueCredential(api, group.id, { name: "Radia Perlman" }, { expiryDate });
  const requests = watchWalletRequests(context);
  await page.goto(walletUrl(server, credential.publicId));

  // The facts on the page itself.
  const facts = await definitionList(page.locator("dl").first());
  expect(facts).toMatchObject({
    "Issued by": `E2E ${org.slug}`,
    "Issue date": longDate(credential.issueDate),
    "Expiry date": longDate(expiryDate),
    "Credential ID": credential.id,
  });
  await expect(page.getByTestId("validity")).toHaveText(/^Signature valid · issued by /);

  const before = Date.now();
  const verified = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/wallet/verify");
  await page.getByRole("button", { name: /verify/i }).click();
  expect((await verified).status()).toBe(200);
  const panel = page.getByTestId("verification");
  await expect(panel).toBeVisible();
  // The verifier's report (the same component as /verify): verdict first, focused, then the facts and each check.
  const verdict = panel.getByTestId("verification-result");
  await expect(verdict).toHaveText(`Signature valid · issued by “E2E ${org.slug}” (name not verified)`);
  await expect(verdict).toBeFocused();
  const shown = await definitionList(panel.locator("dl"));
  expect(shown).toMatchObject({
    "Issued by": `E2E ${org.slug}`,
    "Awarded to": "Radia Perlman",
    Credential: group.name,
    "Valid from": longDate(credential.issueDate),
    "Valid until": longDate(expiryDate),
  });
  await expect(panel.locator("[data-check]")).toHaveCount(5);
  await expect(panel.locator('[data-check="signature"]')).toHaveAttribute("data-outcome", "passed");
  const checkedAt = await panel.locator("time").last().getAttribute("datetime");
  expect(Math.abs(Date.parse(checkedAt!) - before), `check time ${checkedAt}`).toBeLessThan(60_000);
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/guest", "credential_verified/guest"]);
});

// ---- what is not shown, expired -------------------------------------------------------------------

test("drafts, scheduled, deleted and unknown credentials answer the 404 page, and record nothing", async ({
  api,
  server,
  page,
  context,
}) => {
  const group = await walletGroup(api);
  const draft = await draftCredential(api, group.id, { name: "Draft Person", email: "draft@example.com" });
  const scheduled = await scheduledCredential(api, group.id, { name: "Scheduled Person" });
  const deleted = await issueCredential(api, group.id, { name: "Deleted Person" });
  const requests = watchWalletRequests(context);

  // Visible while it exists…
  expect((await page.goto(walletUrl(server, deleted.publicId)))?.status()).toBe(200);
  await requests.settled();
  await expectStatus(await api.delete(`/v1/credentials/${deleted.id}`), 204);

  const cases: [string, string][] = [
    ["draft", walletUrl(server, draft.publicId)],
    ["draft, as recipient", `${walletUrl(server, draft.publicId)}?recipient=true`],
    ["scheduled", walletUrl(server, scheduled.publicId)],
    ["deleted", walletUrl(server, deleted.publicId)],
    ["unknown id", walletUrl(server, randomUUID())],
    ["not an id", walletUrl(server, "not-a-uuid")],
  ];
  for (const [what, url] of cases) {
    await test.step(what, async () => {
      const response = await page.goto(url);
      expect(response?.status(), `${what}: ${url}`).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/not found/i);
      await expect(page.getByRole("button")).toHaveCount(0);
      await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);
      // Nothing of the credential leaks.
      expect(await page.content()).not.toMatch(/Draft Person|Scheduled Person|Deleted Person|og:image/);
    });
  }
  await requests.settled();
  expect(requests.sent.filter((r) => r.url.includes("/api/wallet/events"))).toHaveLength(1); // the deleted one's view, before deletion
  expect(await interactionsOf(api, draft.id)).toEqual([]);
  expect(await interactionsOf(api, scheduled.id)).toEqual([]);
});

test("an expired credential: expired status on the page, verification says expired", async ({ api, org: _org, server, page, context }) => {
  const group = await walletGroup(api);
  const credential = await expiredCredential(api, group.id, { name: "Barbara Liskov" });
  const requests = watchWalletRequests(context);
  const response = await page.goto(walletUrl(server, credential.publicId));
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("validity")).toHaveText(`Expired on ${longDate("2021-06-30")}`);
  await expect(page.getByText(/valid credential/i)).toHaveCount(0);
  const facts = await definitionList(page.locator("dl").first());
  expect(facts["Issue date"]).toBe(longDate("2020-01-15"));
  expect(facts["Expiry date"]).toBe(longDate("2021-06-30"));

  // Nothing offers to share or add an expired credential to a profile (wallet-phone.spec.ts checks the recipient's view).
  await expect(page.getByRole("link", { name: "Add to LinkedIn profile" })).toHaveCount(0);
  await expect(page.getByTestId("image-overlay").first()).toHaveText(`Expired on ${longDate("2021-06-30")}`);

  await page.getByRole("button", { name: /verify/i }).click();
  const panel = page.getByTestId("verification");
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId("verification-result")).toHaveText(/^Expired on June 30, 2021: /);
  const shown = await definitionList(panel.locator("dl"));
  expect(shown["Valid until"]).toBe(longDate("2021-06-30"));
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/guest", "credential_verified/guest"]);
});

test("expiry boundary: expiring today is still valid, expired yesterday is expired", async ({ api, server, page }) => {
  const group = await walletGroup(api);
  const draft = await draftCredential(api, group.id, { name: "Today Expiring" }, { issueDate: isoDate(-30), expiryDate: isoDate(0) });
  const issued = await expectStatus(await api.post(`/v1/credentials/${draft.id}/issue`), 200);
  expect(issued.status, "expired only once the expiry date is before today").toBe("issued");
  await page.goto(walletUrl(server, draft.publicId));
  await expect(page.getByTestId("validity")).toHaveText(/^Signature valid · issued by /);

  const yesterday = await expiredCredential(
    api,
    group.id,
    { name: "Yesterday Expired" },
    { issueDate: isoDate(-30), expiryDate: isoDate(-1) },
  );
  await page.goto(walletUrl(server, yesterday.publicId));
  await expect(page.getByTestId("validity")).toHaveText(`Expired on ${longDate(isoDate(-1))}`);
  await expect(page.getByTestId("image-overlay")).toHaveText(`Expired on ${longDate(isoDate(-1))}`);
});

// ---- user text, metadata, accessibility -----------------------------------------------------------

test("user text is rendered as text: markup in names appears literally, in the QR label and the embed snippet too, and no script runs", async ({
  api,
  org,
  server,
  page,
  context,
}) => {
  const recipientName = `<script>window.__walletXss = 1</script><b>Bold</b> "Ada" & Co`;
  const groupName = `<img src=x onerror="window.__walletXss = 2">Course </title><i>italic</i>`;
  const group = await walletGroup(api, { name: groupName });
  const credential = await issueCredential(api, group.id, { name: recipientName });
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const requests = watchWalletRequests(context);
  const response = await page.goto(`${walletUrl(server, credential.publicId)}?recipient=true`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(groupName);
  await expect(page.getByTestId("recipient-tools")).toBeVisible();
  await expect(page.getByText(recipientName, { exact: true })).toBeVisible();
  await expect(
    page
      .locator("main")
      .locator("b, i")
      .filter({ hasText: /^(Bold|italic)$/ }),
  ).toHaveCount(0);
  await expect(page.locator("script:not([src])").filter({ hasText: "__walletXss = 1" })).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.title()).toContain(groupName);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", `${groupName}: ${recipientName}`);

  await page.getByRole("button", { name: /verify/i }).click();
  const shown = await definitionList(page.getByTestId("verification").locator("dl"));
  expect(shown["Awarded to"]).toBe(recipientName);
  expect(shown.Credential).toBe(groupName);

  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("link", { name: /as PNG$/ }).click();
  expect((await downloadPromise).suggestedFilename()).not.toMatch(/[<>:"/\\|?*]/);

  // The QR code's label: the names as text.
  await expect(page.getByTestId("qr-label")).toHaveText(`${groupName}: ${recipientName}`);
  await expect(page.getByTestId("qr-label").locator("*")).toHaveCount(0);
  // The embed snippet: put into a page, it is one link holding one image whose alt text is the names.
  const snippet = await page.getByTestId("embed-snippet").inputValue();
  expect(snippet).not.toContain("<script");
  expect(snippet).not.toContain("<b>");
  const parsed = await page.evaluate((html) => {
    const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
    const all = Array.from(doc.body.querySelectorAll("*")).map((e) => e.tagName);
    const img = doc.querySelector("a > img");
    return {
      all,
      alt: img?.getAttribute("alt") ?? null,
      href: doc.querySelector("a")?.getAttribute("href") ?? null,
      attrs: img ? img.getAttributeNames().sort() : [],
    };
  }, snippet);
  expect(parsed.all).toEqual(["A", "IMG"]);
  expect(parsed.alt).toBe(`${groupName}, awarded to ${recipientName} by E2E ${org.slug}`);
  expect(parsed.href).toBe(walletUrl(server, credential.publicId));
  expect(parsed.attrs).toEqual(["alt", "height", "src", "style", "width"]);

  expect(await page.evaluate(() => (window as unknown as { __walletXss?: number }).__walletXss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await requests.settled();
  await expectEvents(api, credential.id, [
    "credential_viewed/recipient",
    "credential_verified/recipient",
    "credential_downloaded/recipient",
  ]);
});

test("a name no bundled font covers (Ethiopic): the credential is shown as text, with no broken image, download or og:image", async ({
  api,
  org,
  server,
  page,
  context,
}) => {
  const group = await walletGroup(api, { name: "Data Ethics", badge: true });
  // Hebrew, Arabic, Indic, Thai and emoji are drawn since the renderer shapes every bundled script.
  for (const recipientName of ["ሰላም ዓለም"]) {
    const credential = await issueCredential(api, group.id, { name: recipientName });
    const previews = await credentialPreviews(api, credential.id);
    // The preview URLs refuse to draw it (what the page must not show as an image).
    expect((await page.request.get(previews[0]!.png)).status()).toBe(422);

    const requests = watchWalletRequests(context);
    expect((await page.goto(walletUrl(server, credential.publicId)))?.status()).toBe(200);
    const region = page.getByRole("region", { name: "Credential images" });
    await expect(region.getByRole("img")).toHaveCount(0);
    const cards = region.getByTestId("text-certificate");
    await expect(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      await expect(card).toBeVisible();
      await expect(card.getByText(recipientName, { exact: true })).toHaveAttribute("dir", "auto");
      await expect(card).toContainText("Data Ethics");
      await expect(card).toContainText(`E2E ${org.slug}`);
      await expect(card).toContainText(longDate(credential.issueDate));
    }
    await expect(page.getByRole("heading", { name: "Download" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^(PNG|PDF)$/ })).toHaveCount(0);
    await expect(page.locator('meta[property="og:image"]')).toHaveCount(0);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary");
    await imagesLoaded(page);

    // Everything else works as for any credential.
    await page.getByRole("button", { name: /verify/i }).click();
    await expect(page.getByTestId("verification-result")).toHaveText(/^Signature valid · /);
    expect((await definitionList(page.getByTestId("verification").locator("dl")))["Awarded to"]).toBe(recipientName);
    await requests.settled();
    await expectEvents(api, credential.id, ["credential_viewed/guest", "credential_verified/guest"]);
  }
});

test("sharing metadata: Open Graph and Twitter tags with the PNG preview, a canonical link, title and description", async ({
  api,
  org,
  server,
  page,
  request,
}) => {
  const group = await walletGroup(api, { name: "Secure Coding", learningEventUrl: "https://learn.example.com/secure-coding?x=1" });
  const credential = await issueCredential(api, group.id, { name: "Whitfield Diffie" });
  const canonical = walletUrl(server, credential.publicId);
  const [preview] = await credentialPreviews(api, credential.id);
  await page.goto(`${canonical}?recipient=true`);

  const meta = (selector: string) => page.locator(selector).first().getAttribute("content");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", canonical);
  expect(await meta('meta[property="og:url"]')).toBe(canonical);
  expect(await meta('meta[property="og:image"]')).toBe(preview!.png);
  expect(await meta('meta[property="og:title"]')).toContain("Secure Coding");
  expect(await meta('meta[property="og:description"]')).toContain("Whitfield Diffie");
  expect(await meta('meta[property="og:description"]')).toContain(`E2E ${org.slug}`);
  expect(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  expect(await meta('meta[name="twitter:image"]')).toBe(preview!.png);
  expect(await meta('meta[name="twitter:title"]')).toContain("Secure Coding");
  expect(await meta('meta[name="description"]')).toContain("Whitfield Diffie");
  expect(await page.title()).toContain("Secure Coding");

  // The image an unfurl shows is public and a PNG.
  const image = await request.get(preview!.png);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");

  // The group's learning event link.
  await expect(page.getByRole("link", { name: /about this course/i })).toHaveAttribute(
    "href",
    "https://learn.example.com/secure-coding?x=1",
  );

  // Link-preview crawlers read the tags from the raw HTML's <head>, without running scripts.
  for (const ua of [
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Twitterbot/1.0",
    "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "WhatsApp/2.23.20.0",
    "TelegramBot (like TwitterBot)",
    "curl/8.5.0",
  ]) {
    await test.step(ua, async () => {
      const res = await request.get(canonical, { headers: { "User-Agent": ua } });
      expect(res.status()).toBe(200);
      const html = await res.text();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head, `og:image in <head> for ${ua}`).toContain(`property="og:image" content="${preview!.png}"`);
      expect(head).toContain(`rel="canonical" href="${canonical}"`);
      expect(head).toContain('name="twitter:card" content="summary_large_image"');
    });
  }
});

test("keyboard: Tab reaches every action with a visible focus style; Enter verifies; images have alt text", async ({
  api,
  server,
  page,
}) => {
  const group = await walletGroup(api, { name: "Accessible Web", badge: true });
  const credential = await issueCredential(api, group.id, { name: "Tim Berners-Lee" });
  await page.goto(`${walletUrl(server, credential.publicId)}?recipient=true`);
  await expect(page.getByTestId("recipient-tools")).toBeVisible();
  await imagesLoaded(page);

  const images = await page
    .locator("img")
    .evaluateAll((imgs) => imgs.map((i) => ({ src: (i as HTMLImageElement).src, alt: i.getAttribute("alt") })));
  expect(images.length).toBeGreaterThanOrEqual(2);
  for (const img of images) expect(img.alt?.trim().length ?? 0, `alt of ${img.src}`).toBeGreaterThan(3);
  const previewAlts = await page
    .getByRole("region", { name: "Credential images" })
    .getByRole("img")
    .evaluateAll((imgs) => imgs.map((i) => i.getAttribute("alt") ?? ""));
  for (const alt of previewAlts) expect(alt).toContain("Tim Berners-Lee");

  const reached: { text: string; outline: string; width: number }[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      return {
        text: (el.innerText || el.getAttribute("aria-label") || "").trim(),
        outline: s.outlineStyle,
        width: parseFloat(s.outlineWidth) || 0,
      };
    });
    if (!focused) continue;
    reached.push(focused);
    if (/Copy HTML/.test(focused.text)) break;
  }
  const texts = reached.map((r) => r.text);
  for (const wanted of [
    /^Share$/,
    /^PNG$/,
    /^PDF$/,
    /Add to LinkedIn profile/,
    /^LinkedIn$/,
    /Facebook/,
    /Twitter|^X$/,
    /Messenger/,
    /WhatsApp/,
    /Pinterest/,
    /Telegram/,
    /Weibo/,
    /Copy link/,
    /Verify/,
    /Download QR code/,
    /Copy HTML/,
  ]) {
    const hit = reached.find((r) => wanted.test(r.text));
    expect(hit, `Tab reaches ${wanted} (reached: ${texts.join(" | ")})`).toBeTruthy();
    expect(hit!.outline, `focus style of ${hit!.text}`).not.toBe("none");
    expect(hit!.width, `focus outline width of ${hit!.text}`).toBeGreaterThanOrEqual(2);
  }
  // Enter on the focused Verify button runs it.
  await page.getByRole("button", { name: "Verify this credential" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("verification")).toBeVisible();
});

test("long unbroken names keep the phone layout in its width; a double-clicked Verify checks once", async ({ api, server, browser }) => {
  const group = await walletGroup(api, { name: "Supercalifragilisticexpialidocious".repeat(5) });
  const credential = await issueCredential(api, group.id, { name: "Wolfeschlegelsteinhausenbergerdorff".repeat(4) });
  const context = await freshContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const requests = watchWalletRequests(context);
  const page = await context.newPage();
  await page.goto(walletUrl(server, credential.publicId));
  await imagesLoaded(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(390);
  await page.getByRole("button", { name: /verify/i }).dblclick();
  await expect(page.getByTestId("verification")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(390);
  await requests.settled();
  await expectEvents(api, credential.id, ["credential_viewed/guest", "credential_verified/guest"]);
  await context.close();
});

test("the organization's name and logo head the page; the logo has alt text", async ({ api, org, server, page, cli }, testInfo) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Frances Allen" });
  await page.goto(walletUrl(server, credential.publicId));
  await expect(page.getByRole("banner")).toContainText(`E2E ${org.slug}`);
  await expect(page.getByRole("banner").getByRole("img")).toHaveCount(0);

  await setLogo(cli, org.slug, testInfo);
  await page.reload();
  const logo = page.getByRole("banner").getByRole("img");
  await expect(logo).toHaveAttribute("alt", `E2E ${org.slug} logo`);
  await expect.poll(() => logo.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(150);
  await expect(page.getByRole("banner")).toContainText(`E2E ${org.slug}`);
});

// ---- looks ----------------------------------------------------------------------------------------

test("screenshots at desktop (1280) and phone (390) width; no sideways scrolling; print hides the actions", async ({
  api,
  org,
  server,
  browser,
  cli,
}, testInfo) => {
  await setLogo(cli, org.slug, testInfo);
  const group = await walletGroup(api, { name: "Introduction to Machine Learning", learningEventUrl: "https://learn.example.com/ml" });
  const credential = await issueCredential(api, group.id, { name: "Margaret Hamilton" }, { expiryDate: isoDate(730) });
  const expired = await expiredCredential(api, group.id, { name: "Edsger Dijkstra" });
  const canonical = walletUrl(server, credential.publicId);

  for (const [label, options] of [
    ["desktop", { viewport: { width: 1280, height: 800 } }],
    ["phone", { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ] as const) {
    await test.step(label, async () => {
      const context = await freshContext(browser, options);
      const page = await context.newPage();
      await page.goto(canonical);
      await imagesLoaded(page);
      await screenshot(page, testInfo, `wallet-${label}.png`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(
        options.viewport.width,
      );
      await page.getByRole("button", { name: /verify/i }).click();
      await expect(page.getByTestId("verification")).toBeVisible();
      await screenshot(page, testInfo, `wallet-${label}-verified.png`);

      await page.goto(walletUrl(server, expired.publicId));
      await imagesLoaded(page);
      await screenshot(page, testInfo, `wallet-${label}-expired.png`);
      await page.goto(walletUrl(server, randomUUID()));
      await screenshot(page, testInfo, `wallet-${label}-404.png`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(
        options.viewport.width,
      );
      await context.close();
    });
  }

  const context = await freshContext(browser, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(canonical);
  await imagesLoaded(page);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Credential images" }).getByRole("img").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /verify/i })).toBeHidden();
  await expect(page.getByRole("link", { name: "Add to LinkedIn profile" })).toBeHidden();
  await screenshot(page, testInfo, "wallet-print.png");
  await context.close();
});

// ---- a wallet on its own host ---------------------------------------------------------------------

test("with WALLET_URL on another host than PUBLIC_URL, downloads still save a file under a person's file name", async ({
  api,
  page,
  context,
  startServer,
}) => {
  // One app, two names: the wallet at http://localhost:<port>, the API and previews at http://127.0.0.1:<port>
  // (as with WALLET_URL=https://wallet.example.org and PUBLIC_URL=https://api.example.org).
  const port = await freePort();
  await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, WALLET_URL: `http://localhost:${port}` });
  const group = await walletGroup(api, { name: "Networking" });
  const credential = await issueCredential(api, group.id, { name: "Vint Cerf" });
  const walletPage = `http://localhost:${port}/credentials/${credential.publicId}`;
  const requests = watchWalletRequests(context);
  await recorded(page, "credential_viewed", () => page.goto(`${walletPage}?recipient=true`));
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", walletPage);
  // The PNG (with the credential baked in) and the PDF (with it embedded) come from the wallet's own host.
  const png = await page.getByRole("link", { name: /as PNG$/ }).getAttribute("href");
  expect(new URL(png!).origin, "the baked PNG is served by the wallet's host").toBe(`http://localhost:${port}`);
  const pdf = await page.getByRole("link", { name: /as PDF$/ }).getAttribute("href");
  expect(new URL(pdf!).origin, "the PDF with its credential.json is served by the wallet's host").toBe(`http://localhost:${port}`);

  for (const format of ["PNG", "PDF"]) {
    const downloadPromise = page.waitForEvent("download", { timeout: 15_000 }).catch(() => null);
    await page.getByRole("link", { name: new RegExp(`as ${format}$`) }).click();
    const download = await downloadPromise;
    // Fails while a file lives on another origin, where the `download` attribute does not apply, and is
    // served without Content-Disposition: the browser then shows the bare file in place of the wallet.
    expect(download, `clicking ${format} saves a file (the page went to ${page.url()} instead)`).not.toBeNull();
    expect(download!.suggestedFilename()).toBe(`Networking - Vint Cerf.${format.toLowerCase()}`);
    expect(page.url()).toBe(walletPage);
  }
  await requests.settled();
});
