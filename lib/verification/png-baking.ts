// Open Badges 3.0 baking: a signed credential carried inside a PNG, in one iTXt chunk with the keyword
// `openbadgecredential` (uncompressed, no language tag, no translated keyword). Chunk framing and CRCs
// are done by png-chunks-extract / png-chunks-encode (extract also refuses a chunk whose CRC does not
// match); only the iTXt payload layout (PNG 1.2 §11.3.4.5: keyword NUL flag method language NUL
// translated NUL text) is read and written here, since no kept package does just that.
import { inflateSync } from "node:zlib";
import encodePngChunks from "png-chunks-encode";
import extractPngChunks from "png-chunks-extract";

export const BAKED_CREDENTIAL_KEYWORD = "openbadgecredential";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type BakingFailure =
  /** Not a PNG at all (its first eight bytes are not the PNG signature). */
  | "not_png"
  /** A PNG whose chunk structure is broken: truncated, or a chunk whose CRC does not match. */
  | "corrupt_png"
  /** A well-formed PNG with no `openbadgecredential` iTXt chunk. */
  | "no_credential"
  /** The chunk is there but its payload cannot be read (layout, compression, not UTF-8, too large). */
  | "malformed_chunk";

export class BakingError extends Error {
  constructor(
    readonly kind: BakingFailure,
    message: string,
  ) {
    super(message);
    this.name = "BakingError";
  }
}

type Chunk = { name: string; data: Uint8Array };

function chunksOf(png: Uint8Array): Chunk[] {
  if (png.length < PNG_SIGNATURE.length || !PNG_SIGNATURE.equals(Buffer.from(png.subarray(0, PNG_SIGNATURE.length)))) {
    throw new BakingError("not_png", "The file is not a PNG image.");
  }
  try {
    return extractPngChunks(png);
  } catch {
    // The library's messages name CRCs and offsets: the user needs to know only that the image is damaged.
    throw new BakingError("corrupt_png", "The PNG image is damaged (truncated, or a chunk's checksum does not match).");
  }
}

function itxtData(keyword: string, text: string): Uint8Array {
  return Buffer.concat([
    Buffer.from(keyword, "latin1"),
    Buffer.from([0, /* compression flag */ 0, /* compression method */ 0]),
    Buffer.from([/* empty language tag */ 0, /* empty translated keyword */ 0]),
    Buffer.from(text, "utf8"),
  ]);
}

/** The iTXt chunk's keyword, or null when the data is not even keyword-shaped. */
function itxtKeyword(data: Uint8Array): string | null {
  const end = data.indexOf(0);
  return end <= 0 || end > 79 ? null : Buffer.from(data.subarray(0, end)).toString("latin1");
}

const isCredentialChunk = (chunk: Chunk) => chunk.name === "iTXt" && itxtKeyword(chunk.data) === BAKED_CREDENTIAL_KEYWORD;

/**
 * `png` with `credentialJson` baked in. An image that already carries a credential has it replaced
 * (the baking section allows either refusing or overwriting; a re-download must always work). The
 * chunk goes right after IHDR, so extractors that stop at the first matching chunk read little.
 */
export function bakeCredentialIntoPng(png: Uint8Array, credentialJson: string): Buffer {
  const chunks = chunksOf(png).filter((chunk) => !isCredentialChunk(chunk));
  const header = chunks.findIndex((chunk) => chunk.name === "IHDR");
  if (header !== 0) throw new BakingError("corrupt_png", "The PNG image is damaged (it does not start with an IHDR chunk).");
  chunks.splice(1, 0, { name: "iTXt", data: itxtData(BAKED_CREDENTIAL_KEYWORD, credentialJson) });
  return Buffer.from(encodePngChunks(chunks));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The text of the first `openbadgecredential` iTXt chunk (the spec says read the first one and stop).
 * A compressed chunk is inflated, though bakers must not compress: reading it costs nothing and other
 * tools do write them. `maxTextBytes` bounds the text, inflated or not (a small zlib stream can
 * inflate to gigabytes).
 */
export function extractBakedCredential(png: Uint8Array, maxTextBytes: number): string {
  const chunk = chunksOf(png).find(isCredentialChunk);
  if (!chunk)
    throw new BakingError(
      "no_credential",
      "The PNG image carries no baked credential (no iTXt chunk with the keyword “openbadgecredential”).",
    );
  const data = Buffer.from(chunk.data);
  const keywordEnd = data.indexOf(0);
  const compressed = data[keywordEnd + 1];
  const method = data[keywordEnd + 2];
  const languageEnd = data.indexOf(0, keywordEnd + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  if (compressed === undefined || method === undefined || languageEnd < 0 || translatedEnd < 0 || compressed > 1 || method !== 0) {
    throw new BakingError("malformed_chunk", "The baked credential chunk is malformed (its iTXt layout is not valid).");
  }
  let text: Buffer = data.subarray(translatedEnd + 1);
  if (compressed === 1) {
    try {
      text = inflateSync(text, { maxOutputLength: maxTextBytes + 1 });
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(maxTextBytes);
      throw new BakingError("malformed_chunk", "The baked credential chunk is compressed and its data cannot be decompressed.");
    }
  }
  if (text.length > maxTextBytes) throw tooLarge(maxTextBytes);
  try {
    return utf8.decode(text);
  } catch {
    throw new BakingError("malformed_chunk", "The baked credential chunk is not UTF-8 text.");
  }
}

function tooLarge(maxTextBytes: number): BakingError {
  return new BakingError("malformed_chunk", `The baked credential is larger than ${Math.round(maxTextBytes / 1024)} KiB.`);
}
