// Uploaded images for designs: PNG or JPEG only, recognised by their bytes (not by what the client
// claims), size-limited, with their pixel size read from the header. No remote URLs: a design never
// makes the server fetch anything.
import { createHash } from "node:crypto";

export const MAX_ASSET_BYTES = 768 * 1024;
export const MAX_ASSET_PIXELS_PER_SIDE = 6000;
export const MAX_ASSETS_PER_DESIGN = 20;

export type DecodedAsset = { mimeType: "image/png" | "image/jpeg"; data: Buffer; width: number; height: number; sha256: string };

export class AssetError extends Error {}

const DATA_URI = /^data:(image\/(?:png|jpeg|jpg));base64,([A-Za-z0-9+/]+={0,2})$/;

function pngSize(data: Buffer): { width: number; height: number } | null {
  const signature = "89504e470d0a1a0a";
  if (data.length < 24 || data.subarray(0, 8).toString("hex") !== signature || data.subarray(12, 16).toString("ascii") !== "IHDR") {
    return null;
  }
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function jpegSize(data: Buffer): { width: number; height: number } | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

/** Decodes a `data:image/png;base64,...` or `data:image/jpeg;base64,...` URI. */
export function decodeAssetDataUri(uri: string): DecodedAsset {
  const match = DATA_URI.exec(uri);
  if (!match) throw new AssetError("must be a data URI: data:image/png;base64,... or data:image/jpeg;base64,...");
  const data = Buffer.from(match[2]!, "base64");
  if (data.length > MAX_ASSET_BYTES) throw new AssetError(`is ${data.length} bytes; the limit is ${MAX_ASSET_BYTES} bytes`);
  const png = pngSize(data);
  const jpeg = png ? null : jpegSize(data);
  const size = png ?? jpeg;
  if (!size) throw new AssetError("is not a PNG or JPEG image");
  if (size.width < 1 || size.height < 1 || size.width > MAX_ASSET_PIXELS_PER_SIDE || size.height > MAX_ASSET_PIXELS_PER_SIDE) {
    throw new AssetError(`must be 1 to ${MAX_ASSET_PIXELS_PER_SIDE} pixels on each side`);
  }
  return {
    mimeType: png ? "image/png" : "image/jpeg",
    data,
    ...size,
    sha256: createHash("sha256").update(data).digest("hex"),
  };
}
