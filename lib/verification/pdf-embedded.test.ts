// Hostile PDFs sent to the verifier: every one is a plain PdfCredentialError (a verdict), quickly, and
// never a decompression that grows without bound.
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFHexString, PDFName, PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { extractPdfCredential, PdfCredentialError } from "./pdf-embedded";

const MAX = 256 * 1024;

async function pdfWith(attachments: { name: string; bytes: Uint8Array }[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([100, 100]);
  for (const { name, bytes } of attachments) await document.attach(bytes, name, { mimeType: "application/json" });
  return document.save();
}

async function failure(bytes: Uint8Array): Promise<PdfCredentialError> {
  const error = await extractPdfCredential(bytes, MAX).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PdfCredentialError);
  return error as PdfCredentialError;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("hostile PDFs", () => {
  it("a credential.json that inflates to 1 GiB is refused as too large without being inflated whole", async () => {
    // A FlateDecode stream of 1 GiB of spaces is about 1 MiB: inflated whole it would exhaust memory.
    const bomb = deflateSync(Buffer.alloc(1024 * 1024 * 1024, 0x20), { level: 9 });
    const document = await PDFDocument.create();
    document.addPage([100, 100]);
    const file = document.context.register(document.context.stream(bomb, { Type: "EmbeddedFile", Filter: "FlateDecode" }));
    const spec = document.context.register(
      document.context.obj({
        Type: "Filespec",
        F: PDFString.of("credential.json"),
        UF: PDFHexString.fromText("credential.json"),
        EF: { F: file },
      }),
    );
    document.catalog.set(PDFName.of("AF"), document.context.obj([spec]));
    const pdf = await document.save();
    expect(pdf.length).toBeLessThan(8 * 1024 * 1024);
    const started = performance.now();
    const error = await failure(pdf);
    expect(error.kind).toBe("malformed_attachment");
    expect(error.message).toMatch(/larger than 256 KiB/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("two different credential.json files: refused, since which one the PDF vouches for cannot be told", async () => {
    const pdf = await pdfWith([
      { name: "credential.json", bytes: json({ a: 1 }) },
      { name: "credential.json", bytes: json({ b: 2 }) },
    ]);
    const error = await failure(pdf);
    expect(error.kind).toBe("malformed_attachment");
    expect(error.message).toMatch(/more than one credential\.json/);
  });

  it("the same attachment listed both as an associated file and in the name tree is read once", async () => {
    const pdf = await pdfWith([{ name: "credential.json", bytes: json({ a: 1 }) }]);
    const document = await PDFDocument.load(pdf);
    const names = document.catalog.lookup(PDFName.of("Names"));
    expect(names).toBeDefined();
    // pdf-lib lists it in the EmbeddedFiles name tree and in /AF: the same file specification.
    expect(await extractPdfCredential(pdf, MAX)).toBe(JSON.stringify({ a: 1 }));
  });

  it("a thousand attachments none of which is credential.json: no credential, quickly", async () => {
    const pdf = await pdfWith(Array.from({ length: 1000 }, (_, i) => ({ name: `file-${i}.json`, bytes: json({ i }) })));
    const started = performance.now();
    expect((await failure(pdf)).kind).toBe("no_credential");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("an object tree 100,000 levels deep is a damaged or credential-less PDF, never a crash", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const body = `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Deep ${deep} >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;
    const started = performance.now();
    expect(["corrupt_pdf", "no_credential"]).toContain((await failure(new TextEncoder().encode(body))).kind);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it.each([
    ["no document catalog", "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF"],
    ["a catalog that is not a dictionary", "%PDF-1.4\n1 0 obj\n42\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"],
    [
      "an attachment tree of the wrong types",
      "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Names << /EmbeddedFiles 7 >> /AF 3 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    ],
    [
      "a credential.json whose file entry is not a dictionary",
      "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /AF [2 0 R] >>\nendobj\n2 0 obj\n<< /Type /Filespec /F (credential.json) /EF 5 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    ],
  ])("%s: a damaged or credential-less PDF, never an unexpected error", async (_, body) => {
    expect(["corrupt_pdf", "no_credential", "malformed_attachment"]).toContain((await failure(new TextEncoder().encode(body))).kind);
  });
});
