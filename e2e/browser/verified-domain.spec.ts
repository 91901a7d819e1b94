// Verified domains in Chromium (issue 16, item 3): an organization claims its website domain in
// settings, publishes the line it is given, checks it, and from then on its wallet pages and public
// profile say "verified owner of <domain>"; an impostor with the same name cannot claim that domain
// and is shown, visibly differently, as "issuer identity not verified".
//
// The website is a local http server: the extra app server runs with WEBHOOK_ALLOW_PRIVATE=1, under
// which (and only under which) a claim may name `localhost:<port>` and is read over http.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "@playwright/test";
import { createToken, expect, newAccount, shot, signUp, site, test, type Account } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { issueCredential, uniqueAddress, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 180_000 });

// A check reads the file and, alongside, the DNS TXT record from the system's resolver, which may
// take its few seconds to say there is none on a machine without DNS.
const CHECK_TIMEOUT = 15_000;

/** A website serving whatever the test sets at /.well-known/credential-issuer.txt. */
async function startWebsite() {
  let body: string | null = null;
  const server = http.createServer((req, res) => {
    if (req.url === "/.well-known/credential-issuer.txt" && body !== null)
      return res.writeHead(200, { "content-type": "text/plain" }).end(body);
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    domain: `localhost:${(server.address() as AddressInfo).port}`,
    publish: (text: string | null) => (body = text),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function newPage(browser: Browser, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { "X-Forwarded-For": uniqueAddress() } });
  return context.newPage();
}

/** An organization signed up through the dashboard, with one credential issued through the API. */
async function organizationWithCredential(
  page: Page,
  server: ServerInfo,
  account: Account,
  client: (o: { token: string; baseURL: string }) => Promise<import("@playwright/test").APIRequestContext>,
) {
  await signUp(page, server, account);
  const token = await createToken(page, server, "issuing");
  const api = await client({ token, baseURL: server.baseURL });
  const group = await walletGroup(api, { name: "Data Science Certificate" });
  const credential = await issueCredential(api, group.id, { name: "Ada Lovelace" });
  return { credential };
}

const background = (p: Page) => p.getByTestId("issuer-identity").evaluate((el) => getComputedStyle(el).backgroundColor);

test("claim a domain, publish the token, check: the wallet and the profile say verified; an impostor is visibly not", async ({
  browser,
  server,
  startServer,
  client,
}, testInfo) => {
  const extra = await startServer({ WEBHOOK_ALLOW_PRIVATE: "1" });
  const app: ServerInfo = { ...server, baseURL: extra.baseURL, port: Number(new URL(extra.baseURL).port) };
  const website = await startWebsite();
  try {
    // The real organization.
    const real = await newPage(browser);
    const realAccount = newAccount("Demo Academy");
    const { credential: realCredential } = await organizationWithCredential(real, app, realAccount, client);

    await real.goto(`${site(app)}/dashboard/settings`);
    const section = real.getByRole("region", { name: "Website domain" });
    // A bad domain first: a clear message by the field, nothing claimed.
    await section.getByLabel("Your website’s domain").fill("https://example.edu/about");
    await section.getByRole("button", { name: "Claim domain" }).click();
    await expect(section.locator("#domain-error")).toHaveText(
      "The domain must be a host name only, like example.edu: no https://, path, spaces or @",
    );
    await expect(section.getByTestId("domain-status")).toHaveCount(0);

    await section.getByLabel("Your website’s domain").fill(website.domain);
    await section.getByRole("button", { name: "Claim domain" }).click();
    await expect(section.getByTestId("domain-status")).toContainText("Not verified.");
    const line = (await section.getByTestId("domain-proof-line").textContent())!.trim();
    expect(line).toMatch(/^credential-issuer-verification=[0-9a-f]{32}$/);
    await expect(section).toContainText(`http://${website.domain}/.well-known/credential-issuer.txt`);

    // Checked before the file is there: what was wrong, plainly.
    await section.getByRole("button", { name: "Check now" }).click();
    await expect(section.getByTestId("domain-last-check")).toContainText("wrong HTTP status", { timeout: CHECK_TIMEOUT });
    await expect(section.getByTestId("domain-last-check")).toContainText("404 Not Found");
    await shot(real, testInfo, "settings-check-failed-1440");

    website.publish(`# issuers\n${line}\n`);
    await section.getByRole("button", { name: "Check now" }).click();
    await expect(section.getByTestId("domain-status")).toContainText(`✓ Verified: you are the verified owner of ${website.domain}`, {
      timeout: CHECK_TIMEOUT,
    });
    await shot(real, testInfo, "settings-verified-1440");

    // The wallet page says so, with a check mark, and links to the profile.
    await real.goto(walletUrl(app, realCredential.publicId));
    const realLine = real.getByTestId("issuer-identity");
    await expect(realLine).toHaveText(`✓Issued by Demo Academy·verified owner of ${website.domain}`);
    await expect(realLine).toHaveAttribute("data-verified", "true");
    const verifiedBackground = await background(real);
    await shot(real, testInfo, "wallet-verified-1440");
    await realLine.getByRole("link", { name: "Demo Academy" }).click();
    await expect(real.getByRole("heading", { level: 1 })).toHaveText("Demo Academy");
    const realProfileUrl = real.url();
    expect(realProfileUrl).toMatch(/\/organizations\/[a-z0-9-]+$/);
    const profile = real.getByTestId("issuer-identity");
    await expect(profile).toContainText(`Verified owner of ${website.domain}`);
    await expect(profile.getByRole("link", { name: website.domain })).toHaveAttribute("href", `https://${website.domain}`);
    await expect(real.getByTestId("credentials-issued")).toHaveText("1");
    await expect(real.getByRole("link", { name: /^did:web:localhost%3A\d+:organizations:/ })).toHaveAttribute(
      "href",
      /\/organizations\/[a-z0-9-]+\/did\.json$/,
    );
    await shot(real, testInfo, "profile-verified-1440");

    // The impostor: same name, cannot claim the domain, and its credential looks different.
    const impostor = await newPage(browser);
    const { credential: fakeCredential } = await organizationWithCredential(impostor, app, newAccount("Demo Academy"), client);
    await impostor.goto(`${site(app)}/dashboard/settings`);
    const impostorSection = impostor.getByRole("region", { name: "Website domain" });
    await impostorSection.getByLabel("Your website’s domain").fill(website.domain);
    await impostorSection.getByRole("button", { name: "Claim domain" }).click();
    await expect(impostorSection.getByRole("alert")).toHaveText(
      `${website.domain} is already verified by another organization. If it is yours, contact support.`,
    );
    await expect(impostorSection.getByTestId("domain-status")).toHaveCount(0);

    await impostor.goto(walletUrl(app, fakeCredential.publicId));
    const fakeLine = impostor.getByTestId("issuer-identity");
    await expect(fakeLine).toHaveText("!Issued by Demo Academy·issuer identity not verified");
    await expect(fakeLine).toHaveAttribute("data-verified", "false");
    await shot(impostor, testInfo, "wallet-impostor-1440");
    expect(await background(impostor)).not.toBe(verifiedBackground);
    await fakeLine.getByRole("link", { name: "Demo Academy" }).click();
    await expect(impostor.getByTestId("issuer-identity")).toContainText("Issuer identity not verified");
    await shot(impostor, testInfo, "profile-impostor-1440");

    // Phone-sized views of the same pages.
    for (const [name, page, url] of [
      ["wallet-verified-390", real, walletUrl(app, realCredential.publicId)],
      ["wallet-impostor-390", impostor, walletUrl(app, fakeCredential.publicId)],
      ["profile-verified-390", real, realProfileUrl],
      ["settings-verified-390", real, `${site(app)}/dashboard/settings`],
    ] as const) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url);
      await shot(page, testInfo, name);
    }

    // The site stops serving the token: the next check drops the verification and says why.
    website.publish(null);
    await real.goto(`${site(app)}/dashboard/settings`);
    await real.getByRole("button", { name: "Check now" }).click();
    await expect(real.getByTestId("domain-status")).toContainText("Not verified.", { timeout: CHECK_TIMEOUT });
    await expect(real.getByTestId("domain-status")).toContainText(/Verification removed on \d{4}-\d{2}-\d{2}: .*404 Not Found/);
    await real.goto(walletUrl(app, realCredential.publicId));
    await expect(real.getByTestId("issuer-identity")).toHaveAttribute("data-verified", "false");
  } finally {
    await website.close();
  }
});

test("an unknown issuer profile is a 404", async ({ page, server }) => {
  for (const slug of ["no-such-organization", "Not_A_Slug"]) {
    const response = await page.goto(`${site(server)}/organizations/${slug}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Issuer not found");
  }
});
