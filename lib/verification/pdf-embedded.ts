// A signed credential carried inside a PDF: an embedded file named `credential.json`, found through the
// document's EmbeddedFiles name tree or its associated files (/AF), read with pdf-lib's object model
// (never by scanning bytes, which a crafted PDF could make say anything).
import { inflateSync } from "node:zlib";
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFObject } from "pdf-lib";

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

/**
 * The stream's bytes, decompressed with a bound: a FlateDecode stream of a few MiB can inflate to
 * gigabytes, so zlib stops at `maxBytes` instead of pdf-lib's decoder, which inflates everything first.
 * An attachment is stored plain or FlateDecode-compressed (what PDF writers, ours included, use); any
 * other filter chain is refused rather than decoded without a bound.
 */
function boundedContents(stream: PDFRawStream, maxBytes: number): Buffer {
  const filter = stream.dict.lookup(PDFName.of("Filter"));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter === undefined ? [] : [filter];
  const raw = Buffer.from(stream.contents);
  if (filters.length === 0) return raw;
  if (filters.length > 1 || filters[0] !== PDFName.of("FlateDecode") || stream.dict.has(PDFName.of("DecodeParms")))
    throw new PdfCredentialError(
      "malformed_attachment",
      "The PDF's credential.json attachment is compressed in a way this verifier does not read.",
    );
  try {
    return inflateSync(raw, { maxOutputLength: maxBytes + 1 });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(maxBytes);
    throw new PdfCredentialError("malformed_attachment", "The PDF's credential.json attachment cannot be decompressed.");
  }
}

const tooLarge = (maxBytes: number) =>
  new PdfCredentialError("malformed_attachment", `The PDF's credential.json attachment is larger than ${maxBytes / 1024} KiB.`);

function contentsOf(spec: PDFDict, maxBytes: number): string {
  const files = spec.lookup(PDFName.of("EF"));
  const stream = files instanceof PDFDict ? files.lookup(PDFName.of("F")) : undefined;
  if (!(stream instanceof PDFRawStream))
    throw new PdfCredentialError("malformed_attachment", "The PDF's credential.json attachment has no contents.");
  const bytes = boundedContents(stream, maxBytes);
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new PdfCredentialError("malformed_attachment", "The PDF's credential.json attachment is not UTF-8 text.");
  }
}

/**
 * The file specifications named credential.json. A document whose catalog or attachment lists are not
 * the types the PDF format requires (pdf-lib throws on a lookup of the wrong type) is damaged.
 */
function credentialFileSpecs(document: PDFDocument): Set<PDFDict> {
  try {
    if (!(document.catalog instanceof PDFDict)) throw new TypeError("no document catalog");
    // A file specification is usually listed twice (in /AF and in the name tree): the same object, once.
    return new Set(
      [...associatedFileSpecs(document), ...embeddedFileSpecs(document)].filter((s) => fileNameOf(s) === EMBEDDED_CREDENTIAL_NAME),
    );
  } catch {
    throw new PdfCredentialError("corrupt_pdf", "The PDF is damaged and cannot be read.");
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
  const specs = credentialFileSpecs(document);
  if (specs.size === 0) throw new PdfCredentialError("no_credential", "There is no credential inside this PDF.");
  // Two different credential.json files: which one the PDF vouches for cannot be told, so neither is.
  const contents = new Set([...specs].map((spec) => contentsOf(spec, maxBytes)));
  if (contents.size > 1)
    throw new PdfCredentialError(
      "malformed_attachment",
      "The PDF carries more than one credential.json, with different contents: it cannot be told which one is meant.",
    );
  return [...contents][0]!;
}
