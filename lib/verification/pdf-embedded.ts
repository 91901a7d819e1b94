// A signed credential carried inside a PDF: an embedded file named `credential.json`, found through the
// document's EmbeddedFiles name tree or its associated files (/AF), read with pdf-lib's object model
// (never by scanning bytes, which a crafted PDF could make say anything).
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
  type PDFObject,
} from "pdf-lib";

export const EMBEDDED_CREDENTIAL_NAME = "credential.json";

export type PdfFailure = "not_pdf" | "corrupt_pdf" | "no_credential" | "malformed_attachment";

export class PdfCredentialError extends Error {
  constructor(
    readonly kind: PdfFailure,
    message: string,
  ) {
    super(message);
    this.name = "PdfCredentialError";
  }
}

/** A name tree walk stops here: a real document has a handful of attachments. */
const MAX_NAME_TREE_NODES = 1000;

const text = (value: PDFObject | undefined) =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;

/** The file specifications of the EmbeddedFiles name tree (Names and Kids, iteratively). */
function embeddedFileSpecs(document: PDFDocument): PDFDict[] {
  const names = document.catalog.lookupMaybe(PDFName.of("Names"), PDFDict);
  const root = names?.lookupMaybe(PDFName.of("EmbeddedFiles"), PDFDict);
  const specs: PDFDict[] = [];
  const pending = root ? [root] : [];
  let visited = 0;
  while (pending.length > 0 && visited++ < MAX_NAME_TREE_NODES) {
    const node = pending.pop()!;
    const leaves = node.lookupMaybe(PDFName.of("Names"), PDFArray);
    for (let i = 1; leaves && i < leaves.size(); i += 2) {
      const spec = leaves.lookup(i);
      if (spec instanceof PDFDict) specs.push(spec);
    }
    const kids = node.lookupMaybe(PDFName.of("Kids"), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) pending.push(kid);
    }
  }
  return specs;
}

/** The associated files (/AF) of the document catalog. */
function associatedFileSpecs(document: PDFDocument): PDFDict[] {
  const af = document.catalog.lookupMaybe(PDFName.of("AF"), PDFArray);
  const specs: PDFDict[] = [];
  for (let i = 0; af && i < af.size(); i++) {
    const spec = af.lookup(i);
    if (spec instanceof PDFDict) specs.push(spec);
  }
  return specs;
}

function fileNameOf(spec: PDFDict): string | undefined {
  return text(spec.get(PDFName.of("UF"))) ?? text(spec.get(PDFName.of("F")));
}

function contentsOf(spec: PDFDict, maxBytes: number): string {
  const stream = spec.lookupMaybe(PDFName.of("EF"), PDFDict)?.lookup(PDFName.of("F"));
  if (!(stream instanceof PDFRawStream))
    throw new PdfCredentialError("malformed_attachment", "The PDF's credential.json attachment has no contents.");
  let bytes: Uint8Array;
  try {
    bytes = decodePDFRawStream(stream).decode();
  } catch {
    throw new PdfCredentialError("malformed_attachment", "The PDF's credential.json attachment cannot be decompressed.");
  }
  if (bytes.length > maxBytes)
    throw new PdfCredentialError("malformed_attachment", `The PDF's credential.json attachment is larger than ${maxBytes / 1024} KiB.`);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new PdfCredentialError("malformed_attachment", "The PDF's credential.json attachment is not UTF-8 text.");
  }
}

/** The JSON text of the PDF's embedded `credential.json`; a PdfCredentialError says why there is none. */
export async function extractPdfCredential(bytes: Uint8Array, maxBytes: number): Promise<string> {
  if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw new PdfCredentialError("not_pdf", "The file is not a PDF.");
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: true });
  } catch {
    throw new PdfCredentialError("corrupt_pdf", "The PDF is damaged and cannot be read.");
  }
  const spec = [...associatedFileSpecs(document), ...embeddedFileSpecs(document)].find((s) => fileNameOf(s) === EMBEDDED_CREDENTIAL_NAME);
  if (!spec) throw new PdfCredentialError("no_credential", "There is no credential inside this PDF.");
  return contentsOf(spec, maxBytes);
}
