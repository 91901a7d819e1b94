// The wallet as people first see it (issue 19): on a 390×844 phone the first screen holds the issuer,
// the title, the recipient, the status and the main action (the images below); the actions depend on
// who looks (guest: verify, issuer, what it means; recipient: share, add to profile, downloads, QR,
// embed); expired and revoked states are stamped over the images and take share and add-to-profile
// away; the images reserve their box and come in smaller widths; at 1440×900 the verify result comes
// into view and takes focus. Screenshots of every view at both sizes are attached.
import type { Browser, BrowserContext, Locator, Page, TestInfo } from "@playwright/test";
import { test as base, expect } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { credentialPreviews, expiredCredential, issueCredential, uniqueAddress, walletGroup, walletUrl } from "../support/wallet-helpers";

const test = base.extend<{ clientAddress: string }>({
  clientAddress: async ({}, use) => use(uniqueAddress()),
  extraHTTPHeaders: async ({ clientAddress }, use) => use({ "X-Forwarded-For": clientAddress }),
});
test.describe.configure({ timeout: 120_000 });

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

async function open(browser: Browser, size: typeof PHONE | typeof DESKTOP, url: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...size, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page };
}

/** The page has read the recipient mark (or its absence) and shows that viewer's actions. */
async function viewerSettled(page: Page, viewer: "recipient" | "guest") {
  await expect(page.locator("[data-viewer]")).toHaveAttribute("data-viewer", viewer);
}

/** Entirely inside the first screen, without scrolling. */
async function expectAboveFold(page: Page, locator: Locator, what: string) {
  expect(await page.evaluate(() => window.scrollY), "not scrolled").toBe(0);
  const box = await locator.boundingBox();
  expect(box, `${what} is laid out`).not.toBeNull();
  const height = page.viewportSize()!.height;
  expect(box!.y, `${what} top`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} bottom (first screen is ${height} px)`).toBeLessThanOrEqual(height);
}

async function imagesLoaded(page: Page) {
  await expect
    .poll(
      () =>
        page
          .locator("img")
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)),
      { timeout: 30_000 },
    )
    .toBe(true);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await imagesLoaded(page);
  const file = testInfo.outputPath(name);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

test("phone fold: status, title, recipient, issuer and the main action are on the first screen, for the guest and the recipient", async ({
  api,
  org,
  server,
  browser,
}, testInfo) => {
  const group = await walletGroup(api, { name: "Introduction to Machine Learning" });
  const credential = await issueCredential(api, group.id, { name: "Margaret Hamilton" });
  const url = walletUrl(server, credential.publicId);

  for (const viewer of ["guest", "recipient"] as const) {
    await test.step(viewer, async () => {
      const { context, page } = await open(browser, PHONE, viewer === "recipient" ? `${url}?recipient=true` : url);
      await viewerSettled(page, viewer);
      await expectAboveFold(page, page.getByRole("banner").getByText(`E2E ${org.slug}`, { exact: true }).first(), "issuer name");
      await expectAboveFold(page, page.getByTestId("issuer-identity"), "issuer identity line");
      await expectAboveFold(page, page.getByTestId("validity"), "status pill");
      await expectAboveFold(page, page.getByRole("heading", { level: 1, name: group.name }), "title");
      await expectAboveFold(page, page.getByText("Margaret Hamilton", { exact: true }).first(), "recipient");
      const main = viewer === "guest" ? page.getByRole("button", { name: "Verify this credential" }) : page.getByTestId("share-button");
      await expectAboveFold(page, main, "main action");
      if (viewer === "recipient")
        await expectAboveFold(page, page.getByRole("link", { name: "Add to LinkedIn profile" }), "add to profile");
      // The images come after the summary.
      const image = page.getByRole("region", { name: "Credential images" }).getByRole("img").first();
      expect((await image.boundingBox())!.y).toBeGreaterThan((await main.boundingBox())!.y);
      await screenshot(page, testInfo, `phone-${viewer}.png`);
      await context.close();
    });
  }
});

test("desktop 1440×900: two columns, status and main action on the first screen; Verify scrolls its result into view and focuses it", async ({
  api,
  server,
  browser,
}, testInfo) => {
  const group = await walletGroup(api, { name: "Cloud Basics", badge: true });
  const credential = await issueCredential(api, group.id, { name: "Alan Turing" });
  const url = walletUrl(server, credential.publicId);

  const recipient = await open(browser, DESKTOP, `${url}?recipient=true`);
  await viewerSettled(recipient.page, "recipient");
  await expectAboveFold(recipient.page, recipient.page.getByTestId("validity"), "status pill");
  await expectAboveFold(recipient.page, recipient.page.getByTestId("share-button"), "share");
  await screenshot(recipient.page, testInfo, "desktop-recipient.png");
  await recipient.context.close();

  const { context, page } = await open(browser, DESKTOP, url);
  await viewerSettled(page, "guest");
  const verify = page.getByRole("button", { name: "Verify this credential" });
  await expectAboveFold(page, page.getByTestId("validity"), "status pill");
  await expectAboveFold(page, verify, "verify");
  // Images left, summary right.
  const image = (await page.getByRole("region", { name: "Credential images" }).getByRole("img").first().boundingBox())!;
  const pill = (await page.getByTestId("validity").boundingBox())!;
  expect(pill.x).toBeGreaterThan(image.x + image.width);
  await screenshot(page, testInfo, "desktop-guest.png");

  await verify.click();
  const verdict = page.getByTestId("verification-result");
  await expect(verdict).toBeFocused();
  await expect
    .poll(
      async () => {
        const box = await verdict.boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= 900;
      },
      { message: "the verdict scrolled into view" },
    )
    .toBe(true);
  await context.close();
});

test("viewer-aware actions: a guest gets verify, the issuer and what the credential means; the recipient gets share, add to profile, downloads, QR and embed", async ({
  api,
  org,
  server,
  browser,
}, testInfo) => {
  const group = await walletGroup(api, { name: "Data Stewardship" });
  const credential = await issueCredential(api, group.id, { name: "Grace Hopper" });
  const url = walletUrl(server, credential.publicId);
  const [preview] = await credentialPreviews(api, credential.id);

  const guest = await open(browser, PHONE, url);
  const g = guest.page;
  await viewerSettled(g, "guest");
  await expect(g.getByRole("button", { name: "Verify this credential" })).toBeVisible();
  await expect(g.getByTestId("share-button")).toHaveCount(0);
  await expect(g.getByRole("link", { name: "Add to LinkedIn profile" })).toHaveCount(0);
  await expect(g.locator("a[download]")).toHaveCount(0);
  await expect(g.locator("a[data-network]")).toHaveCount(0);
  await expect(g.getByTestId("recipient-tools")).toHaveCount(0);
  // What it means: the link on the first screen goes to the group's description and criteria.
  await g.getByRole("link", { name: "What this credential means" }).click();
  const meaning = g.getByTestId("achievement");
  await expect(meaning).toBeInViewport();
  await expect(meaning.getByRole("heading", { name: "What this is" })).toBeVisible();
  await expect(meaning.getByRole("heading", { name: "How it was earned" })).toBeVisible();
  // The issuer: name, identity, public profile.
  const issuer = g.getByTestId("issuer-card");
  await expect(issuer).toContainText(`E2E ${org.slug}`);
  await expect(issuer).toContainText(/not verified/);
  await expect(issuer.getByRole("link", { name: "Issuer profile" })).toHaveAttribute("href", `/organizations/${org.slug}`);
  expect((await g.request.get(`/organizations/${org.slug}`)).status()).toBe(200);
  await guest.context.close();

  const recipient = await open(browser, PHONE, `${url}?recipient=true`);
  const r = recipient.page;
  await viewerSettled(r, "recipient");
  await expect(r.getByTestId("share-button")).toBeVisible();
  await expect(r.getByRole("link", { name: "Add to LinkedIn profile" })).toBeVisible();
  await expect(r.getByRole("button", { name: "Verify this credential" })).toBeVisible();
  const tools = r.getByTestId("recipient-tools");
  await expect(tools.getByRole("region", { name: "Share" }).locator("a[data-network]")).toHaveCount(8);
  await expect(tools.getByRole("link", { name: `Download ${preview!.name} as PNG` })).toHaveAttribute("download", /\.png$/);
  await expect(tools.getByRole("link", { name: `Download ${preview!.name} as PDF` })).toHaveAttribute("download", /\.pdf$/);
  // The QR code: an SVG of the canonical link, with a label, and a PNG to download.
  const qrImage = tools.getByRole("region", { name: "QR code" }).getByRole("img");
  await expect(qrImage).toHaveAttribute("alt", /QR code/);
  await expect(tools.getByTestId("qr-label")).toHaveText(`${group.name}: Grace Hopper`);
  const svg = await r.request.get(`/credentials/${credential.publicId}/qr.svg`);
  expect(svg.headers()["content-type"]).toBe("image/svg+xml");
  expect(await svg.text()).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // No code for a credential without a public wallet page: the envelope's 404.
  const unknown = await r.request.get(`/credentials/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}/qr.svg`);
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("not_found");
  const qrLink = tools.getByRole("link", { name: "Download QR code (PNG)" });
  const qrPng = await r.request.get((await qrLink.getAttribute("href"))!);
  expect(qrPng.status()).toBe(200);
  expect(qrPng.headers()["content-type"]).toBe("image/png");
  expect(qrPng.headers()["content-disposition"]).toContain("attachment");
  expect((await qrPng.body()).readUInt32BE(16)).toBe(1024);
  // The embed snippet: a link to the wallet around the 800 px preview.
  const snippet = await tools.getByTestId("embed-snippet").inputValue();
  expect(snippet).toContain(`<a href="${url}"`);
  expect(snippet).toContain(`src="${preview!.png}?w=800" width="800"`);
  await screenshot(r, testInfo, "phone-recipient-tools.png");
  await recipient.context.close();
});

test("expired: stamped over the images, no share or add to profile; the recipient keeps the downloads; the pill is on a phone's first screen", async ({
  api,
  server,
  browser,
}, testInfo) => {
  const group = await walletGroup(api, { name: "First Aid", badge: true });
  const credential = await expiredCredential(api, group.id, { name: "Barbara Liskov" });
  const url = walletUrl(server, credential.publicId);

  for (const [viewer, size] of [
    ["guest", PHONE],
    ["recipient", PHONE],
    ["guest", DESKTOP],
    ["recipient", DESKTOP],
  ] as const) {
    await test.step(`${viewer} ${size.viewport.width}`, async () => {
      const { context, page } = await open(browser, size, viewer === "recipient" ? `${url}?recipient=true` : url);
      await viewerSettled(page, viewer);
      await expect(page.getByTestId("validity")).toHaveText("Expired on June 30, 2021");
      await expectAboveFold(page, page.getByTestId("validity"), "expired pill");
      await expectAboveFold(page, page.getByRole("button", { name: "Verify this credential" }), "verify");
      const overlays = page.getByTestId("image-overlay");
      await expect(overlays).toHaveText(["Expired on June 30, 2021", "Expired on June 30, 2021"]);
      // Each stamp lies over its image.
      for (const frame of await page.getByRole("region", { name: "Credential images" }).locator("figure").all()) {
        const img = (await frame.getByRole("img").boundingBox())!;
        const stamp = (await frame.getByTestId("image-overlay").boundingBox())!;
        expect(stamp.y).toBeGreaterThanOrEqual(img.y);
        expect(stamp.y + stamp.height).toBeLessThanOrEqual(img.y + img.height);
      }
      await expect(page.getByTestId("share-button")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Add to LinkedIn profile" })).toHaveCount(0);
      await expect(page.locator("a[data-network]")).toHaveCount(0);
      await expect(page.getByRole("region", { name: "QR code" })).toHaveCount(0);
      await expect(page.getByTestId("embed-snippet")).toHaveCount(0);
      await expect(page.locator("a[download]")).toHaveCount(viewer === "recipient" ? 4 : 0);
      await screenshot(page, testInfo, `expired-${viewer}-${size.viewport.width}.png`);
      await context.close();
    });
  }
});

test("revoked: stamped over the images, nothing to share, add or download even for the recipient; screenshots at both sizes", async ({
  api,
  server,
  browser,
}, testInfo) => {
  const group = await walletGroup(api, { name: "Forklift Licence" });
  const credential = await issueCredential(api, group.id, { name: "Ada Revoked" });
  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: { reason: "Issued by mistake" } }), 200);
  const url = walletUrl(server, credential.publicId);
  for (const [viewer, size] of [
    ["guest", PHONE],
    ["recipient", PHONE],
    ["guest", DESKTOP],
    ["recipient", DESKTOP],
  ] as const) {
    await test.step(`${viewer} ${size.viewport.width}`, async () => {
      const { context, page } = await open(browser, size, viewer === "recipient" ? `${url}?recipient=true` : url);
      await viewerSettled(page, viewer);
      await expect(page.getByTestId("image-overlay")).toHaveText(["Revoked"]);
      await expectAboveFold(page, page.getByTestId("revoked-notice"), "revocation notice");
      await expectAboveFold(page, page.getByTestId("validity"), "revoked pill");
      // The revocation first: above everything else on the screen, and first in reading order.
      const noticeTop = (await page.getByTestId("revoked-notice").boundingBox())!.y;
      for (const other of [
        page.locator("header"),
        page.getByTestId("validity"),
        page.getByRole("heading", { name: "Forklift Licence" }),
        page.locator("main img").first(),
      ]) {
        expect((await other.boundingBox())!.y).toBeGreaterThan(noticeTop);
      }
      expect(await page.locator("body").evaluate((body) => (body as HTMLElement).innerText.trim().split("\n")[0])).toBe(
        "This credential was revoked",
      );
      await expect(page.locator("a[download], a[data-network]")).toHaveCount(0);
      await expect(page.getByRole("button", { name: /share|download|copy|linkedin/i })).toHaveCount(0);
      await expect(page.getByRole("link", { name: /share|download|linkedin|png|pdf/i })).toHaveCount(0);
      await expect(page.getByTestId("share-button")).toHaveCount(0);
      await expect(page.getByTestId("recipient-tools")).toHaveCount(0);
      // Not even hidden in the data the page's client components were given.
      expect(await page.content()).not.toMatch(/download=|\.pdf\b|badge\.png|qr\.(?:png|svg)/i);
      await screenshot(page, testInfo, `revoked-${viewer}-${size.viewport.width}.png`);
      await context.close();
    });
  }
});

test("images: intrinsic width and height, a srcset of smaller widths; the small width answers a smaller PNG; bad widths are a 400", async ({
  api,
  server,
  browser,
  request,
}) => {
  const group = await walletGroup(api, { name: "Responsive Images", badge: true });
  const credential = await issueCredential(api, group.id, { name: "Sophie Wilson" });
  const previews = await credentialPreviews(api, credential.id);
  const { context, page } = await open(browser, PHONE, walletUrl(server, credential.publicId));
  const images = page.getByRole("region", { name: "Credential images" }).getByRole("img");
  await expect(images).toHaveCount(2);
  const attrs = await images.evaluateAll((imgs) =>
    imgs.map((i) => ({
      width: i.getAttribute("width"),
      height: i.getAttribute("height"),
      srcset: i.getAttribute("srcset"),
      sizes: i.getAttribute("sizes"),
    })),
  );
  // The certificate (A4 landscape) and the square badge, at the full preview's 1600 px.
  expect(attrs.map((a) => [a.width, a.height])).toEqual([
    ["1600", "1131"],
    ["1600", "1600"],
  ]);
  for (const [i, a] of attrs.entries()) {
    expect(a.srcset).toBe(
      `${previews[i]!.png}?w=480 480w, ${previews[i]!.png}?w=800 800w, ${previews[i]!.png}?w=1200 1200w, ${previews[i]!.png} 1600w`,
    );
    expect(a.sizes).toContain("100vw");
  }
  await imagesLoaded(page);
  // A 390 px phone at 2x picks the 800 px image, not the 1600 px one.
  const chosen = await images.first().evaluate((i) => (i as HTMLImageElement).currentSrc);
  expect(chosen).toBe(`${previews[0]!.png}?w=800`);
  await context.close();

  const full = await request.get(previews[0]!.png);
  const small = await request.get(`${previews[0]!.png}?w=480`);
  expect(small.status()).toBe(200);
  expect(small.headers()["content-type"]).toBe("image/png");
  expect(small.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const fullBytes = await full.body();
  const smallBytes = await small.body();
  expect(fullBytes.readUInt32BE(16)).toBe(1600);
  expect(smallBytes.readUInt32BE(16)).toBe(480);
  expect(smallBytes.length).toBeLessThan(fullBytes.length / 2);
  // The full size's answer is unchanged (docs/api.md, Previews).
  expect(full.headers()["etag"]).toBe(`"${/([0-9a-f]{40})\.png$/.exec(previews[0]!.png)![1]}.png"`);

  for (const bad of ["?w=481", "?w=abc", "?w=", "?w=1600"]) {
    const res = await request.get(`${previews[0]!.png}${bad}`);
    expect(res.status(), bad).toBe(400);
    expect((await res.json()).error.code).toBe("validation_error");
  }
  const pdf = await request.get(`${previews[0]!.pdf}?w=800`);
  expect(pdf.status()).toBe(400);
});
