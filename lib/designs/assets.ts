// Uploaded images (design assets and organization logos): PNG or JPEG only, recognised by their bytes
// (not by what the client claims), size-limited, then decoded in full and encoded again. Only the
// pixels survive: a truncated or corrupt file is refused instead of stored, and whatever else a file
// carried (text chunks, EXIF and other metadata, bytes after the image's end that make it a ZIP, HTML
// or script as well) is gone. No remote URLs: a design never makes the server fetch anything.
import { createHash } from "node:crypto";
import sharp from "sharp";

export const MAX_ASSET_BYTES = 768 * 1024;
export const MAX_ASSET_PIXELS_PER_SIDE = 6000;
export const MAX_ASSETS_PER_DESIGN = 20;

export type ImageMimeType = "image/png" | "image/jpeg";
export type DecodedAsset = { mimeType: ImageMimeType; data: Buffer; width: number; height: number; sha256: string };

/** A refused image; the message completes "<field> ..." ("assets.logo: is not a PNG or JPEG image"). */
export class AssetError extends Error {}

const DATA_URI = /^data:(image\/(?:png|jpeg|jpg));base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the bytes start like. libvips picks its decoder by the same signatures, so nothing
 *  else (SVG, GIF, TIFF, ...) ever reaches a decoder. */
function sniffFormat(data: Buffer): "png" | "jpeg" | null {
  if (data.length > 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return "png";
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "jpeg";
  return null;
}

/** Decodes an uploaded PNG or JPEG to its pixels and encodes them again, in the same format. */
export async function decodeImage(data: Buffer): Promise<DecodedAsset> {
  if (data.length > MAX_ASSET_BYTES) throw new AssetError(`is ${data.length} bytes; the limit is ${MAX_ASSET_BYTES} bytes`);
  const format = sniffFormat(data);
  if (!format) throw new AssetError("is not a PNG or JPEG image");
  const name = format === "png" ? "PNG" : "JPEG";
  const open = () =>
    // failOn "warning": a decoder's complaint (a truncated file, a bad checksum) refuses the image
    // rather than storing a half-grey one. The pixel limit stops a small file that inflates to
    // gigabytes before it is decoded.
    sharp(data, { failOn: "warning", limitInputPixels: MAX_ASSET_PIXELS_PER_SIDE * MAX_ASSET_PIXELS_PER_SIDE });

  let header;
  try {
    header = await open().metadata();
  } catch {
    throw new AssetError(`is not a readable ${name} image`);
  }
  // EXIF orientation is applied to the pixels (and then dropped with the rest of the metadata), so the
  // picture keeps the way up it was shown in; sizes are the upright ones.
  const [width, height] = (header.orientation ?? 1) >= 5 ? [header.height, header.width] : [header.width, header.height];
  if (!width || !height || width > MAX_ASSET_PIXELS_PER_SIDE || height > MAX_ASSET_PIXELS_PER_SIDE) {
    throw new AssetError(`must be 1 to ${MAX_ASSET_PIXELS_PER_SIDE} pixels on each side`);
  }

  let output;
  try {
    const pipeline = open().autoOrient();
    // Without keepMetadata, sharp writes none (EXIF, XMP, ICC, text chunks) and converts to sRGB.
    output = await (format === "png" ? pipeline.png({ compressionLevel: 9 }) : pipeline.jpeg({ quality: 90 })).toBuffer({
      resolveWithObject: true,
    });
  } catch {
    throw new AssetError(`is not a complete ${name} image: it could not be decoded to the end (truncated or corrupt?)`);
  }
  return {
    mimeType: format === "png" ? "image/png" : "image/jpeg",
    data: output.data,
    width: output.info.width,
    height: output.info.height,
    sha256: createHash("sha256").update(output.data).digest("hex"),
  };
}

/** Decodes a `data:image/png;base64,...` or `data:image/jpeg;base64,...` URI (see decodeImage). */
export async function decodeAssetDataUri(uri: string): Promise<DecodedAsset> {
  const match = DATA_URI.exec(uri);
  if (!match) throw new AssetError("must be a data URI: data:image/png;base64,... or data:image/jpeg;base64,...");
  return decodeImage(Buffer.from(match[2]!, "base64"));
}
