// Temporary (not committed): screenshots of /verify and the wallet verification.
import http from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startBenchServer } from "./bench/app-server";

const OUT = "/tmp/verify-shots";

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "verify-shots-"));
  const env = { DATABASE_URL: `file:${dir}/db.sqlite`, DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE: "1", APP_SECRET: "shots-secret-0123456789abcdef0123456789" };
  const server = await startBenchServer(env, { expectDemoToken: false });
  const port = new URL(server.url).port;
  Object.assign(process.env, env, { PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: "warn" });
  const token = { body: "" };
  const site = http.createServer((req, res) => {
    if (req.url === "/.well-known/credential-issuer.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end(token.body);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  const domain = `localhost:${(site.address() as { port: number }).port}`;
  try {
    const { createOrganization } = await import("@/lib/organizations/service");
    const { createDesign } = await import("@/lib/designs/service");
    const { createGroup } = await import("@/lib/groups/service");
    const credentials = await import("@/lib/credentials/service");
    const domains = await import("@/lib/domains/service");
    const real = await createOrganization({ slug: "demo-academy", name: "Demo Academy", plan: "premium" });
    const fake = await createOrganization({ slug: "demo-academy-official", name: "Demo Academy", plan: "premium" });
    const claim = await domains.claimDomain(real.id, domain);
    token.body = `credential-issuer-verification=${(claim as { token: string }).token}\n`;
    const checked = await domains.checkDomainNow(real.id);
    console.log("domain:", JSON.stringify(checked).slice(0, 200));
    const make = async (org: typeof real) => {
      const design = await createDesign(org, { name: "Certificate", type: "certificate" });
      return (await createGroup(org.id, { name: "Data Science Certificate", designIds: [design.id] })).id;
    };
    const g1 = await make(real);
    const g2 = await make(fake);
    const valid = await credentials.createIssueCredential(real, { groupId: g1, recipient: { name: "Ada Lovelace", email: "ada@example.com" } });
    const expired = await credentials.createIssueCredential(real, { groupId: g1, recipient: { name: "Barbara Liskov", email: "b@example.com" }, issueDate: "2020-01-15", expiryDate: "2021-06-30" });
    const revoked = await credentials.createIssueCredential(real, { groupId: g1, recipient: { name: "Grace Hopper", email: "g@example.com" } });
    await credentials.revokeCredential(real, revoked.id, { reason: "Issued to the wrong person" });
    const impostor = await credentials.createIssueCredential(fake, { groupId: g2, recipient: { name: "Ada Lovelace", email: "ada@example.com" } });

    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
    const json = await (await fetch(`${server.url}/credentials/${valid.publicId}/credential.json`)).json();
    json.credentialSubject.name = "Mallory";
    const cases: [string, string][] = [
      ["valid", `http://localhost:${port}/credentials/${valid.publicId}`],
      ["expired", `http://localhost:${port}/credentials/${expired.publicId}`],
      ["revoked", `http://localhost:${port}/credentials/${revoked.publicId}`],
      ["impostor", `http://localhost:${port}/credentials/${impostor.publicId}`],
      ["tampered", JSON.stringify(json, null, 2)],
    ];
    for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      for (const [name, text] of cases) {
        await page.goto(`${server.url}/verify`);
        await page.getByLabel("Credential link or JSON").fill(text);
        await page.getByRole("button", { name: "Verify", exact: true }).click();
        await page.getByTestId("verification-result").waitFor();
        await page.waitForTimeout(700);
        await page.screenshot({ path: `${OUT}/verify-${name}-${viewport.width}.png` });
        console.log(name, viewport.width, await page.getByTestId("verification-result").textContent());
      }
      for (const [name, c] of [["valid", valid], ["revoked", revoked], ["impostor", impostor], ["expired", expired]] as const) {
        await page.goto(`${server.url}/credentials/${c.publicId}`);
        await page.getByRole("button", { name: "Verify this credential" }).click();
        await page.getByTestId("verification-result").waitFor();
        await page.waitForTimeout(700);
        await page.screenshot({ path: `${OUT}/wallet-${name}-${viewport.width}.png` });
      }
      await context.close();
    }
    await browser.close();
  } finally {
    site.close();
    await server.stop();
  }
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
