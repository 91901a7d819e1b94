// The /verify page with a presentation (docs/api.md, Verify): besides the overall verdict, each
// credential the presentation holds is shown with its own verdict and checks, so a reader sees which
// one failed. At phone size.
import { expect, shot, test } from "../support/dashboard-helpers";
import { issueCredential, walletGroup } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

test("at 390×844: a presentation of two credentials, one changed, shows each credential's report", async ({ page, api }, testInfo) => {
  const group = await walletGroup(api, { name: "Data Science Certificate" });
  const first = await issueCredential(api, group.id, { name: "Ada Lovelace" });
  const second = await issueCredential(api, group.id, { name: "Grace Hopper" });
  const json = async (publicId: string) => JSON.parse(await (await api.get(`/credentials/${publicId}/credential.json`)).text());
  const tampered = await json(second.publicId);
  tampered.credentialSubject.name = "Mallory";
  // Unsigned by a holder: the credentials' own signatures are what is checked.
  const presentation = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    type: ["VerifiablePresentation"],
    verifiableCredential: [await json(first.publicId), tampered],
  };

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/verify");
  await page.getByLabel("Credential link or JSON").fill(JSON.stringify(presentation));
  await page.getByRole("button", { name: "Verify", exact: true }).click();

  await expect(page.getByTestId("verification").first()).toHaveAttribute("data-verdict", "invalid");
  const presented = page.getByTestId("presented-credential");
  await expect(page.getByTestId("presented-credentials").getByRole("heading", { level: 3 }).first()).toHaveText(
    "Credentials in this presentation (2)",
  );
  await expect(presented).toHaveCount(2);
  // The valid one is folded, the changed one open, each with its own verdict and checks.
  await expect(presented.nth(0)).not.toHaveAttribute("open", "");
  await expect(presented.nth(1)).toHaveAttribute("open", "");
  await expect(presented.nth(0).getByTestId("verification")).toHaveAttribute("data-verdict", "valid");
  await expect(presented.nth(1).getByTestId("verification")).toHaveAttribute("data-verdict", "invalid");
  await expect(presented.nth(1).locator('[data-check="signature"]')).toHaveAttribute("data-outcome", "failed");
  await expect(presented.nth(1).getByTestId("verification-result")).toHaveText("Not valid: the document was changed after it was signed.");
  // The overall verdict keeps the focus; the page does not scroll sideways.
  await expect(page.getByTestId("verification-result").first()).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, testInfo, "verify-presentation-390");
});
