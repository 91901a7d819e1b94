// The verdict names who signed (docs/api.md, Verify): on a phone (390x844), the wallet page of an
// organization that proved its domain reads "Valid · issued by Demo Academy, owner of <domain>" in green,
// and an impostor's page (same name, no verified domain) reads "Signature valid · issued by “Demo
// Academy” (name not verified)" in amber, both in the first screen; /verify says the same of each, and
// verifies the PDF that carries the credential. Screenshots of each are kept.
//
// The website is a local http server: the extra app server runs with WEBHOOK_ALLOW_PRIVATE=1, under
// which (and only under which) a claim may name `localhost:<port>` and is read over http.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { createToken, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { issueCredential, uniqueAddress, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 240_000 });

const PHONE = { width: 390, height: 844 };

async function website() {
  let body: string | null = null;
  const server = http.createServer((req, res) => {
    if (req.url === "/.well-known/credential-issuer.txt" && body !== null)
      return res.writeHead(200, { "content-type": "text/plain" }).end(body);
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    domain: `localhost:${(server.address() as AddressInfo).port}`,
    publish: (text: string) => (body = text),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  return context.newPage();
}

async function demoAcademyCredential(
  page: Page,
  app: ServerInfo,
  client: (o: { token: string; baseURL: string }) => Promise<APIRequestContext>,
) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, app, newAccount("Demo Academy"));
  const api = await client({ token: await createToken(page, app, "issuing"), baseURL: app.baseURL });
  const group = await walletGroup(api, { name: "Data Science Certificate" });
  return issueCredential(api, group.id, { name: "Ada Lovelace" });
}

const pill = (page: Page) => page.getByTestId("validity");
const background = (page: Page) => pill(page).evaluate((el) => getComputedStyle(el).backgroundColor);

async function expectInFirstScreen(page: Page, what: string) {
  const box = (await pill(page).boundingBox())!;
  expect(box.y + box.height, `${what} in the first screen`).toBeLessThanOrEqual(PHONE.height);
}

test("a verified issuer's page and an impostor's differ in the first screen; /verify names the signer and reads a PDF", async ({
  browser,
  server,
  startServer,
  client,
}, testInfo) => {
  const extra = await startServer({ WEBHOOK_ALLOW_PRIVATE: "1" });
  const app: ServerInfo = { ...server, baseURL: extra.baseURL, port: Number(new URL(extra.baseURL).port) };
  const site_ = await website();
  try {
    const real = await phonePage(browser);
    const realCredential = await demoAcademyCredential(real, app, client);
    await real.goto(`${site(app)}/dashboard/settings`);
    const section = real.getByRole("region", { name: "Website domain" });
    await section.getByLabel("Your website’s domain").fill(site_.domain);
    await section.getByRole("button", { name: "Claim domain" }).click();
    site_.publish(`${(await section.getByTestId("domain-proof-line").textContent())!.trim()}\n`);
    await section.getByRole("button", { name: "Check now" }).click();
    await expect(section.getByTestId("domain-status")).toContainText("Verified", { timeout: 15_000 });

    const impostor = await phonePage(browser);
    const fakeCredential = await demoAcademyCredential(impostor, app, client);

    // The wallet pages at phone size: the pill says who signed, in different words and colours.
    await real.setViewportSize(PHONE);
    await real.goto(walletUrl(app, realCredential.publicId));
    await expect(pill(real)).toHaveText(`Valid · issued by Demo Academy, owner of ${site_.domain}`);
    await expect(pill(real)).toHaveAttribute("data-issuer-verified", "true");
    await expectInFirstScreen(real, "the verified issuer's pill");
    await real.screenshot({ path: testInfo.outputPath("wallet-verified-390x844.png") });

    await impostor.setViewportSize(PHONE);
    await impostor.goto(walletUrl(app, fakeCredential.publicId));
    await expect(pill(impostor)).toHaveText("Signature valid · issued by “Demo Academy” (name not verified)");
    await expect(pill(impostor)).toHaveAttribute("data-issuer-verified", "false");
    await expectInFirstScreen(impostor, "the impostor's pill");
    await impostor.screenshot({ path: testInfo.outputPath("wallet-impostor-390x844.png") });
    expect(await background(impostor)).not.toBe(await background(real));

    // /verify at phone size says the same of each (the verifier names the domain's host, without a port).
    const host = site_.domain.replace(/:\d+$/, "");
    for (const [name, credential, text, verified] of [
      ["verify-verified-390x844", realCredential, `Valid · issued by Demo Academy, owner of ${host}`, "true"],
      ["verify-impostor-390x844", fakeCredential, "Signature valid · issued by “Demo Academy” (name not verified)", "false"],
    ] as const) {
      await real.goto(`${site(app)}/verify`);
      await real.locator("#verify-input").fill(walletUrl(app, credential.publicId));
      await real.getByRole("button", { name: "Verify", exact: true }).click();
      await expect(real.getByTestId("verification-result")).toHaveText(text, { timeout: 20_000 });
      await expect(real.getByTestId("verification")).toHaveAttribute("data-issuer-verified", verified);
      await real.screenshot({ path: testInfo.outputPath(`${name}.png`) });
    }

    // A PDF carrying the credential, chosen on /verify.
    const json = await (await real.request.get(`${walletUrl(app, realCredential.publicId)}/credential.json`)).text();
    const pdf = await PDFDocument.create();
    pdf.addPage([400, 300]);
    await pdf.attach(Buffer.from(json), "credential.json", { mimeType: "application/json" });
    await real.goto(`${site(app)}/verify`);
    await real.locator("input[type=file]").setInputFiles({
      name: "certificate.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(await pdf.save()),
    });
    await expect(real.getByTestId("verification-result")).toHaveText(`Valid · issued by Demo Academy, owner of ${host}`, {
      timeout: 20_000,
    });
    await shot(real, testInfo, "verify-pdf-390x844");
  } finally {
    await site_.close();
  }
});
