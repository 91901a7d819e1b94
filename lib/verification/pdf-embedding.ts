// A PDF that proves itself: the wallet's PDF download carries the credential's signed Open Badges 3.0
// document as an embedded file `credential.json`, a PDF associated file (the catalog's /AF, with
// AFRelationship Data, as PDF/A-3 and PDF 2.0 describe), so that whoever receives the PDF can check
// the credential without the wallet page. pdf-lib writes and reads the PDF's structures.
import {
  AFRelationship,
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  PDFHexString,
} from "pdf-lib";

export const EMBEDDED_CREDENTIAL_NAME = "credential.json";
const MIME_TYPE = "application/ld+json";

/** The PDF with the signed document attached as `credential.json`. */
export async function embedCredentialInPdf(pdf: Uint8Array, signedJson: string, signedAt: Date): Promise<Uint8Array> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  await document.attach(new TextEncoder().encode(signedJson), EMBEDDED_CREDENTIAL_NAME, {
    mimeType: MIME_TYPE,
    description: "The signed credential (W3C Verifiable Credential, Open Badges 3.0)",
    creationDate: signedAt,
    modificationDate: signedAt,
    afRelationship: AFRelationship.Data,
  });
  // Object streams off: the attachment stays an ordinary object that simple readers find too.
  return document.save({ useObjectStreams: false, updateFieldAppearances: false });
}

const nameText = (value: unknown) => (value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null);

/**
 * The text of the PDF's embedded `credential.json`, or null when it has none. Throws when the bytes
 * are not a PDF pdf-lib can read.
 */
export async function embeddedCredentialJson(pdf: Uint8Array): Promise<string | null> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const names = document.catalog.lookupMaybe(PDFName.of("Names"), PDFDict);
  const embedded = names?.lookupMaybe(PDFName.of("EmbeddedFiles"), PDFDict);
  const list = embedded?.lookupMaybe(PDFName.of("Names"), PDFArray);
  if (!list) return null;
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const spec = list.lookup(i + 1, PDFDict);
    const fileName = nameText(spec.lookup(PDFName.of("UF"))) ?? nameText(list.lookup(i));
    if (fileName !== EMBEDDED_CREDENTIAL_NAME) continue;
    const stream = spec.lookupMaybe(PDFName.of("EF"), PDFDict)?.lookup(PDFName.of("F"));
    if (!(stream instanceof PDFRawStream)) return null;
    return new TextDecoder("utf-8", { fatal: true }).decode(decodePDFRawStream(stream).decode());
  }
  return null;
}
