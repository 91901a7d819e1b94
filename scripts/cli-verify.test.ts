// `npm run cli -- verify` as a script would run it: a child process on the same database and
// PUBLIC_URL as the server that issued the credential; the verdict printed and the exit code.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../test/support/db/scratch-database";

const ENV = { PUBLIC_URL: "http://localhost:4566", APP_SECRET: "cli-verify-test-secret-0123456789abcdef" };
const dir = await scratchDatabase("cli-verify", ENV);

const { createOrganization } = await import("../lib/organizations/service");
const { createDesign } = await import("../lib/designs/service");
const { createGroup } = await import("../lib/groups/service");
const credentials = await import("../lib/credentials/service");
const { publicOpenBadgeCredential } = await import("../lib/verifiable/service");
const { bakeCredentialIntoPng } = await import("../lib/verification/png-baking");

let json: string;
let publicId: string;

beforeAll(async () => {
  const org = await createOrganization({ slug: "cli-org", name: "CLI Academy", plan: "premium" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
  const credential = await credentials.createIssueCredential(org, {
    groupId: group.id,
    recipient: { name: "Ada Lovelace", email: "ada@example.com" },
  });
  publicId = credential.publicId;
  json = (await publicOpenBadgeCredential(publicId))!.json;
});

function cli(...args: string[]) {
  const result = spawnSync("node_modules/.bin/tsx", ["--tsconfig", "tsconfig.json", "scripts/cli.ts", ...args], {
    env: { ...process.env, ...ENV, DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dir, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function file(name: string, content: string | Buffer): string {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
}

function plainPng(): Buffer {
  const png = new PNG({ width: 2, height: 2 });
  png.data.fill(255);
  return PNG.sync.write(png);
}

describe("npm run cli -- verify", () => {
  it("a valid credential (its JSON file, a baked PNG, its wallet URL): exit 0 and each check", () => {
    for (const arg of [
      file("ok.json", json),
      file("ok.png", bakeCredentialIntoPng(plainPng(), json)),
      `http://localhost:4566/credentials/${publicId}`,
    ]) {
      const run = cli("verify", arg);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(/^Valid: issued by CLI Academy to Ada Lovelace on /);
      expect(run.out).toContain("PASS  Signature: The signature matches");
      expect(run.out).toContain("WARN  Issuer:");
      expect(run.out.trim().endsWith("verdict: valid")).toBe(true);
    }
  }, 120_000);

  it("tampered: exit 1; a PNG without a credential: exit 2; a missing file or no argument: exit 2 with a usage message", () => {
    const tampered = JSON.parse(json);
    tampered.credentialSubject.name = "Mallory";
    const bad = cli("verify", file("bad.json", JSON.stringify(tampered)));
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^Not valid: the document was changed after it was signed\./);
    expect(bad.out).toContain("FAIL  Signature:");

    const plain = cli("verify", file("plain.png", plainPng()));
    expect(plain.code).toBe(2);
    expect(plain.out).toContain("carries no baked credential");

    const missing = cli("verify", path.join(dir, "nothing.json"));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("Cannot read");
    expect(cli("verify").code).toBe(2);
  }, 120_000);

  it("a PDF carrying credential.json: exit 0; a PDF without one: exit 2, saying so", async () => {
    const pdfWith = async (attachment: string | null) => {
      const pdf = await PDFDocument.create();
      pdf.addPage([200, 100]);
      if (attachment) await pdf.attach(Buffer.from(attachment), "credential.json", { mimeType: "application/json" });
      return Buffer.from(await pdf.save());
    };
    const ok = cli("verify", file("ok.pdf", await pdfWith(json)));
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/^Valid: issued by CLI Academy/);
    const none = cli("verify", file("none.pdf", await pdfWith(null)));
    expect(none.code).toBe(2);
    expect(none.out).toContain("There is no credential inside this PDF.");
  }, 120_000);

  it("a credential with a member nested 5,000 levels deep: exit 1, its depth named, no crash", () => {
    const deep = JSON.parse(json);
    deep.credentialSubject.notes = "PLACEHOLDER";
    const text = JSON.stringify(deep).replace('"PLACEHOLDER"', '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000));
    const run = cli("verify", file("deep.json", text));
    expect(run.code, run.err).toBe(1);
    expect(run.out).toMatch(/^Not valid: The document is nested too deeply to be a credential\./);
    expect(run.out).toContain("more than 100 levels deep");
  }, 120_000);
});
