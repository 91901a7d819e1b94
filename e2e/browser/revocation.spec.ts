// Revocation in Chromium (docs/api.md, Revocation): the wallet page of a revoked
// credential stays public, says first of all that it was revoked, when and why (the issuer's text shown
// as text), offers nothing to share, add or download, and its verification answers "revoked"; and the
// dashboard's Revoke, which asks for a reason and a confirmation before it revokes anything.
import type { Page } from "@playwright/test";
import { SERVICE_VERSION } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { createTemplate, createToken, expect, newAccount, shot, signUp, site, test } from "../support/dashboard-helpers";
import type { ServerInfo } from "../support/state";
import { credentialPreviews, issueCredential, walletGroup, walletUrl } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

// Markup and quotes in the reason must come out as the characters typed, never as elements.
const REASON = `Issued to the wrong "Ada" <b>by mistake</b> & withdrawn`;

/** Everything the wallet offers to do with a credential besides verifying it. */
function walletOffers(page: Page) {
  return {
    download: page.locator("a[download]"),
    addToProfile: page.getByRole("link", { name: "Add to LinkedIn profile" }),
    share: page.getByRole("heading", { name: "Share" }),
    copy: page.getByRole("button", { name: /Copy link/i }),
    networks: page.locator("a[data-network]"),
  };
}

test("the wallet page of a revoked credential: revoked first, when and why, no share or download, verification says revoked", async ({
  page,
  api,
  org,
  server,
}, testInfo) => {
  const group = await walletGroup(api, { name: "Safety Training" });
  const kept = await issueCredential(api, group.id, { name: "Grace Kept" });
  const revoked = await issueCredential(api, group.id, { name: "Ada Revoked" });
  const previews = await credentialPreviews(api, revoked.id);
  const after = await expectStatus(await api.post(`/v1/credentials/${revoked.id}/revoke`, { data: { reason: REASON } }), 200);
  const revokedOn = new Date(after.revokedAt).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

  // The same page of a credential that is not revoked offers its recipient its actions: the checks below can fail.
  await page.goto(`${walletUrl(server, kept.publicId)}?recipient=true`);
  await expect(page.getByTestId("validity")).toHaveText(`Signature valid · issued by “E2E ${org.slug}” (name not verified)`);
  const keptOffers = walletOffers(page);
  await expect(keptOffers.share).toBeVisible();
  await expect(keptOffers.addToProfile).toBeVisible();
  expect(await keptOffers.download.count()).toBeGreaterThan(0);
  await expect(page.getByTestId("revoked-notice")).toHaveCount(0);

  // Opened by its recipient (the email's link): still nothing to share, add or download.
  const response = await page.goto(`${walletUrl(server, revoked.publicId)}?recipient=true`);
  expect(response?.status()).toBe(200);
  const notice = page.getByTestId("revoked-notice");
  await expect(notice).toBeVisible();
  await expect(notice.getByRole("heading", { level: 1 })).toHaveText("This credential was revoked");
  await expect(notice).toContainText(`revoked it on ${revokedOn}`);
  await expect(page.getByTestId("revocation-reason")).toHaveText(`Reason: ${REASON}`);
  await expect(notice.locator("b")).toHaveCount(0);
  await expect(page.getByTestId("validity")).toHaveText(`Revoked on ${revokedOn}`);

  // Before anything else: the notice comes first in the page, ahead of the issuer's name and the images.
  const firstText = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) =>
        n.textContent?.trim() && n.parentElement?.closest("script, style, [hidden]") === null
          ? NodeFilter.FILTER_ACCEPT
          : NodeFilter.FILTER_SKIP,
    });
    return walker.nextNode()?.textContent?.trim() ?? null;
  });
  expect(firstText).toBe("This credential was revoked");
  const noticeIsFirst = await notice.evaluate((el) => {
    const others = [...document.querySelectorAll("header, img, main")];
    return others.every((o) => Boolean(el.compareDocumentPosition(o) & Node.DOCUMENT_POSITION_FOLLOWING));
  });
  expect(noticeIsFirst).toBe(true);

  const offers = walletOffers(page);
  for (const [what, locator] of Object.entries(offers)) await expect(locator, what).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Download" })).toHaveCount(0);
  await expect(page.locator("[data-viewer]")).toHaveAttribute("data-viewer", "recipient");
  await expect(page.getByTestId("recipient-tools")).toHaveCount(0);
  // Over each image too.
  await expect(page.getByTestId("image-overlay")).toHaveText(["Revoked"]);
  await shot(page, testInfo, "wallet-revoked");

  await page.getByRole("button", { name: "Verify this credential" }).click();
  const result = page.getByTestId("verification-result");
  await expect(result).toHaveText(`Revoked on ${revokedOn}: ${REASON}`);

  // Its previews' URLs are immutable and keep answering.
  const png = await page.request.get(previews[0]!.png);
  expect(png.status()).toBe(200);
});

/** The API as the organization's systems use it, with a token made in the dashboard. */
function apiOf(server: ServerInfo, token: string) {
  const headers = {
    Authorization: `Bearer ${token}`,
    "Service-Version": SERVICE_VERSION,
    "X-Forwarded-Proto": "https",
    "Content-Type": "application/json",
  };
  const call = async <T>(method: string, pathname: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.baseURL}${pathname}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    expect(response.status, `${method} ${pathname}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json;
  };
  return call;
}

type Credential = { id: string; status: string; revokedAt: string | null; revocationReason: string | null };

test("the dashboard revokes a credential only after a confirmation, with the reason, and shows it revoked", async ({
  page,
  server,
}, testInfo) => {
  await signUp(page, server, newAccount("Revoking School"));
  await createTemplate(page, server, "Course");
  const call = apiOf(server, await createToken(page, server, "tests"));
  const groupId = (await call<{ data: { id: string }[] }>("GET", "/v1/groups")).data[0]!.id;
  const credential = await call<Credential>("POST", "/v1/credentials/create-issue-send", {
    groupId,
    recipient: { name: "Linus Revoked", email: "linus@example.com" },
  });
  expect(credential.status).toBe("issued");

  await page.goto(`${site(server)}/dashboard/credentials/${credential.id}`);
  await expect(page.getByRole("button", { name: "Send email" })).toBeVisible();
  // The first click only asks; Cancel leaves the credential as it was.
  await page.getByRole("button", { name: "Revoke…" }).click();
  const form = page.getByTestId("revoke-form");
  await expect(form).toContainText("Revocation is final");
  await page.getByLabel(/Reason/).fill("Typo in the name");
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(form).toHaveCount(0);
  expect((await call<Credential>("GET", `/v1/credentials/${credential.id}`)).revokedAt).toBeNull();

  await page.getByRole("button", { name: "Revoke…" }).click();
  await page.getByLabel(/Reason/).fill(REASON);
  await shot(page, testInfo, "dashboard-revoke-confirmation");
  await page.getByRole("button", { name: "Revoke credential" }).click();

  const state = page.getByTestId("revoked-state");
  await expect(state).toBeVisible();
  await expect(state).toContainText(`Reason: ${REASON}`);
  await expect(state.locator("b")).toHaveCount(0);
  const stored = await call<Credential>("GET", `/v1/credentials/${credential.id}`);
  expect(stored.revocationReason).toBe(REASON);
  expect(stored.revokedAt).not.toBeNull();
  await expect(state).toContainText(stored.revokedAt!.replace("T", " ").slice(0, 19));
  // Final: nothing left to revoke or send.
  await expect(page.getByRole("button", { name: "Revoke…" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send email" })).toHaveCount(0);
  await shot(page, testInfo, "dashboard-revoked");

  await page.goto(`${site(server)}/dashboard/credentials`);
  const row = page.locator("tbody tr", { has: page.getByRole("link", { name: "Linus Revoked", exact: true }) });
  // The status cell: "revoked" in place of the status, then the email's state.
  await expect(row.locator("td").nth(3)).toHaveText(/^revoked\s*email (sent|queued|cancelled)$/);
  await expect(row.getByRole("button", { name: "Send email" })).toHaveCount(0);
});
