// The "download all" archive against a scratch database, read back with the system's `unzip`: every
// file is what it says, the PNG's baked credential verifies, and a reader that goes away stops the work
// without an error.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { scratchDatabase, scratchFolder } from "../../test/support/db/scratch-database";

await scratchDatabase("wallet-download", {
  PUBLIC_URL: "http://localhost:4556",
  APP_SECRET: "wallet-download-test-secret-0123456789abcdef",
});

const { db } = await import("../db");
const { log } = await import("../log");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const { verifyCredentialDocument } = await import("../verification/verify-document");
const { extractBakedCredential } = await import("../verification/png-baking");
const { embeddedCredentialJson } = await import("../verification/pdf-embedding");
const { credentialsArchive, downloadableCredentials } = await import("./archive");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;
let twoDesignsGroupId: string;

beforeAll(async () => {
  org = await createOrganization({ slug: "zip-org", name: "Zip Academy", plan: "premium" });
  const certificate = await createDesign(org, { name: "Certificate", type: "certificate" });
  const badge = await createDesign(org, { name: "Badge", type: "badge" });
  groupId = (await createGroup(org.id, { name: "Web Accessibility", designIds: [certificate.id] })).id;
  twoDesignsGroupId = (await createGroup(org.id, { name: "Data/Science", designIds: [certificate.id, badge.id] })).id;
});

function unzip(zip: Buffer) {
  const file = path.join(scratchFolder("zip"), "all.zip");
  writeFileSync(file, zip);
  return {
    names: execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n").filter(Boolean),
    read: (name: string) => execFileSync("unzip", ["-p", file, name], { maxBuffer: 64 * 1024 * 1024 }),
  };
}

describe("download all", () => {
  it("holds credential.json, a PDF and a baked PNG per design of each downloadable credential", async () => {
    const email = "zip@example.com";
    const one = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Zip Person", email: "Zip@Example.com" },
      issueDate: "2024-05-01",
    });
    const two = await credentials.createIssueCredential(org, { groupId: twoDesignsGroupId, recipient: { name: "Zip Person", email } });
    // Private hides a credential from others, not from its recipient.
    await db().credential.update({ where: { id: two.id }, data: { visibility: "private" } });
    const revoked = await credentials.createIssueCredential(org, { groupId, recipient: { name: "Zip Person", email } });
    await db().credential.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    await credentials.createCredential(org, { groupId, recipient: { name: "Zip Person", email } });
    await credentials.createIssueCredential(org, { groupId, recipient: { name: "Someone Else", email: "else@example.com" } });

    const listed = await downloadableCredentials(email);
    expect(listed.map((c) => c.publicId)).toEqual([two.publicId, one.publicId]);

    const zip = unzip(await buffer(credentialsArchive(listed)));
    const oneFolder = `zip-academy-web-accessibility-${one.publicId}`;
    const twoFolder = `zip-academy-data-science-${two.publicId}`;
    expect(zip.names.sort()).toEqual(
      [
        `${oneFolder}/credential.json`,
        `${oneFolder}/web-accessibility.pdf`,
        `${oneFolder}/web-accessibility.png`,
        `${twoFolder}/credential.json`,
        `${twoFolder}/data-science-badge.pdf`,
        `${twoFolder}/data-science-badge.png`,
        `${twoFolder}/data-science-certificate.pdf`,
        `${twoFolder}/data-science-certificate.png`,
      ].sort(),
    );
    const json = zip.read(`${oneFolder}/credential.json`).toString("utf8");
    expect(JSON.parse(json)).toMatchObject({ credentialSubject: { achievement: { name: "Web Accessibility" } } });
    expect((await verifyCredentialDocument({ kind: "json", json })).verdict).toBe("valid");
    const pdf = zip.read(`${oneFolder}/web-accessibility.pdf`);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The same PDF as the wallet page's download: it carries the signed document, which verifies.
    const embedded = await embeddedCredentialJson(pdf);
    expect(embedded).toBe(json);
    expect((await verifyCredentialDocument({ kind: "pdf", bytes: pdf })).verdict).toBe("valid");
    // A private credential's PDF carries its document too.
    const privatePdf = zip.read(`${twoFolder}/data-science-badge.pdf`);
    expect(JSON.parse((await embeddedCredentialJson(privatePdf)) ?? "null")?.id).toContain(two.publicId);
    const png = zip.read(`${twoFolder}/data-science-badge.png`);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    const baked = extractBakedCredential(png, 1024 * 1024);
    expect(JSON.parse(baked).id).toContain(two.publicId);
    expect((await verifyCredentialDocument({ kind: "png", bytes: png })).verdict).toBe("valid");
  });

  it("is an empty archive for a recipient with nothing to download", async () => {
    const zip = await buffer(credentialsArchive(await downloadableCredentials("nobody@example.com")));
    // The end-of-central-directory record alone.
    expect(zip.subarray(0, 4).toString("hex")).toBe("504b0506");
  });

  it("stops quietly when its reader goes away", async () => {
    const email = "quitter@example.com";
    for (let i = 0; i < 4; i++) await credentials.createIssueCredential(org, { groupId, recipient: { name: "Quitter", email } });
    const errors = vi.spyOn(log, "error");
    const archive = credentialsArchive(await downloadableCredentials(email));
    let entries = 0;
    archive.on("entry", () => entries++);
    await new Promise<void>((resolve) => archive.once("data", () => resolve()));
    archive.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(errors).not.toHaveBeenCalled();
    expect(archive.destroyed).toBe(true);
    // The work stopped with the reader: not every file of the four credentials was made.
    expect(entries).toBeLessThan(12);
  });
});
