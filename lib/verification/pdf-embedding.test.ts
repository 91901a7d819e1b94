import { verifyCredential as independentVerify } from "@digitalcredentials/vc";
import { DataIntegrityProof as IndependentProof } from "@digitalcredentials/data-integrity";
import { cryptosuite as independentCryptosuite } from "@digitalcredentials/eddsa-rdfc-2022-cryptosuite";
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { openBadgesSchemaErrors } from "../../test/support/open-badges/schema";

await scratchDatabase("pdf-embedding", { PUBLIC_URL: "http://localhost:4321", APP_SECRET: "pdf-embedding-secret-0123456789abcdef" });

const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const { ownDocumentLoader, publicOpenBadgeCredential } = await import("../verifiable/service");
const { credentialPdfWithDocument } = await import("./baked-download");
const { embedCredentialInPdf, embeddedCredentialJson } = await import("./pdf-embedding");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;
let designId: string;

beforeAll(async () => {
  org = await createOrganization({ slug: "pdf-org", name: "PDF Academy", plan: "premium" });
  designId = (await createDesign(org, { name: "D", type: "certificate" })).id;
  groupId = (await createGroup(org.id, { name: "Course", designIds: [designId] })).id;
});

describe("the wallet's PDF download", () => {
  it("carries the signed credential as an associated file credential.json, which verifies independently", async () => {
    const credential = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    const pdf = await credentialPdfWithDocument(credential.publicId, designId);
    expect(pdf).not.toBeNull();

    // Read back with pdf-lib's object model: the catalog's EmbeddedFiles name tree and its /AF array.
    const document = await PDFDocument.load(pdf!);
    expect(document.getPageCount()).toBe(1);
    const associated = document.catalog.lookup(PDFName.of("AF"), PDFArray);
    expect(associated.size()).toBe(1);
    const spec = associated.lookup(0, PDFDict);
    expect(spec.get(PDFName.of("AFRelationship"))).toBe(PDFName.of("Data"));
    const stream = spec.lookup(PDFName.of("EF"), PDFDict).lookup(PDFName.of("F"));
    expect(String((stream as unknown as { dict: PDFDict }).dict.get(PDFName.of("Subtype")))).toBe("/application#2Fld+json");

    const json = await embeddedCredentialJson(pdf!);
    expect(json).toBe((await publicOpenBadgeCredential(credential.publicId))!.json);
    const signed = JSON.parse(json!) as object;
    expect(openBadgesSchemaErrors(signed)).toEqual([]);
    const result = await independentVerify({
      credential: signed,
      suite: new IndependentProof({ cryptosuite: independentCryptosuite }),
      documentLoader: ownDocumentLoader(),
      checkStatus: async () => ({ verified: true }),
    });
    expect(result.verified).toBe(true);
  });

  it("is not offered for a revoked credential or a design outside its group", async () => {
    const credential = await credentials.createIssueCredential(org, { groupId, recipient: { name: "Grace Hopper" } });
    expect(await credentialPdfWithDocument(credential.publicId, "dsn_unknown")).toBeNull();
    await credentials.revokeCredential(org, credential.id, {});
    expect(await credentialPdfWithDocument(credential.publicId, designId)).toBeNull();
  });

  it("a PDF without an attachment reads as having none", async () => {
    const plain = await (await PDFDocument.create()).save();
    expect(await embeddedCredentialJson(plain)).toBeNull();
    const withOther = await PDFDocument.load(plain);
    await withOther.attach(new TextEncoder().encode("hello"), "notes.txt", { mimeType: "text/plain" });
    expect(await embeddedCredentialJson(await withOther.save())).toBeNull();
    const attached = await embedCredentialInPdf(plain, '{"a":1}', new Date("2026-01-01T00:00:00Z"));
    expect(await embeddedCredentialJson(attached)).toBe('{"a":1}');
  });
});
