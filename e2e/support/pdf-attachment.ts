// Reads the `credential.json` a PDF carries as an embedded (associated) file, with pdf-lib's object
// model, written here apart from the app's own reader: the catalog's /AF array and its file spec.
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";

export async function embeddedCredentialOf(pdf: Uint8Array): Promise<{ json: string; relationship: string; mimeType: string } | null> {
  const document = await PDFDocument.load(pdf);
  const associated = document.catalog.lookupMaybe(PDFName.of("AF"), PDFArray);
  if (!associated) return null;
  for (let i = 0; i < associated.size(); i++) {
    const spec = associated.lookup(i, PDFDict);
    if (spec.lookup(PDFName.of("UF"))?.toString() !== "(credential.json)") continue;
    const stream = spec.lookup(PDFName.of("EF"), PDFDict).lookup(PDFName.of("F"));
    if (!(stream instanceof PDFRawStream)) return null;
    return {
      json: Buffer.from(decodePDFRawStream(stream).decode()).toString("utf8"),
      relationship: String(spec.get(PDFName.of("AFRelationship"))),
      mimeType: String(stream.dict.get(PDFName.of("Subtype"))),
    };
  }
  return null;
}
