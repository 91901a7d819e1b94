// The image decoder on real PNG and JPEG files: what is stored is a fresh encoding of the pixels alone.
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AssetError, decodeAssetDataUri, decodeImage, MAX_ASSET_BYTES } from "./assets";

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of one colour, with extra chunks (text, say) before its pixels. */
function png(width: number, height: number, extraChunks: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4).fill(Buffer.from([200, 30, 30, 255]))]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    ...extraChunks,
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AssetError);
  return (error as AssetError).message;
}

describe("decodeImage", () => {
  it("stores a PNG as a PNG of the same size and pixels", async () => {
    const decoded = await decodeImage(png(30, 20));
    expect(decoded).toMatchObject({ mimeType: "image/png", width: 30, height: 20 });
    const pixels = await sharp(decoded.data).raw().toBuffer({ resolveWithObject: true });
    expect(pixels.info).toMatchObject({ format: "raw", width: 30, height: 20, channels: 4 });
    expect([...pixels.data.subarray(0, 4)]).toEqual([200, 30, 30, 255]);
  });

  it("stores a JPEG as a JPEG, without its EXIF data, turned the way its orientation said", async () => {
    const withExif = await sharp({ create: { width: 40, height: 10, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: "secret-owner", ImageDescription: "<script>alert(1)</script>" } } })
      .toBuffer();
    expect(withExif.includes("secret-owner")).toBe(true);
    const decoded = await decodeImage(withExif);
    expect(decoded).toMatchObject({ mimeType: "image/jpeg", width: 10, height: 40 });
    expect(decoded.data.includes("secret-owner")).toBe(false);
    expect(decoded.data.includes("script")).toBe(false);
    const meta = await sharp(decoded.data).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 10, height: 40 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it("refuses a truncated PNG with a clear message", async () => {
    const whole = png(300, 200);
    const idatEnd = whole.length - 12; // IEND is the last 12 bytes; cut into the pixel data before it
    for (const cut of [idatEnd - 8, Math.floor(whole.length / 2), 60]) {
      const message = await refusal(decodeImage(whole.subarray(0, cut)));
      expect(message).toMatch(/PNG image/);
    }
    expect(await refusal(decodeImage(whole.subarray(0, idatEnd - 8)))).toBe(
      "is not a complete PNG image: it could not be decoded to the end (truncated or corrupt?)",
    );
  });

  it("refuses a truncated JPEG", async () => {
    const jpeg = await sharp({ create: { width: 200, height: 150, channels: 3, background: "#884422" } })
      .jpeg()
      .toBuffer();
    expect(await refusal(decodeImage(jpeg.subarray(0, jpeg.length - 200)))).toMatch(/not a complete JPEG image/);
  });

  it("drops what a polyglot carries besides its pixels: bytes after the image's end and text chunks", async () => {
    const html = Buffer.from("<html><script>alert(document.cookie)</script></html>");
    const zip = Buffer.from("PK\u0003\u0004 polyglot archive payload", "latin1");
    const text = chunk("tEXt", Buffer.from("Comment\u0000<script>alert(1)</script>", "latin1"));
    const polyglot = Buffer.concat([png(12, 8, [text]), html, zip]);
    const decoded = await decodeImage(polyglot);
    expect(decoded).toMatchObject({ mimeType: "image/png", width: 12, height: 8 });
    for (const marker of ["script", "html", "PK\u0003\u0004", "tEXt", "Comment", "payload"]) {
      expect(decoded.data.includes(Buffer.from(marker, "latin1"))).toBe(false);
    }
    // It ends where a PNG ends.
    expect(decoded.data.subarray(-8, -4).toString("latin1")).toBe("IEND");
  });

  it("refuses what is not a PNG or JPEG, whatever its name: SVG, GIF, text", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    for (const bytes of [svg, gif, Buffer.from("hello, not an image")]) {
      expect(await refusal(decodeImage(bytes))).toBe("is not a PNG or JPEG image");
    }
  });

  it("keeps the size limits: bytes, and pixels per side before decoding", async () => {
    expect(await refusal(decodeImage(Buffer.alloc(MAX_ASSET_BYTES + 1)))).toBe(
      `is ${MAX_ASSET_BYTES + 1} bytes; the limit is ${MAX_ASSET_BYTES} bytes`,
    );
    // 6001 x 1 compresses to almost nothing; the header alone refuses it.
    expect(await refusal(decodeImage(png(6001, 1)))).toBe("must be 1 to 6000 pixels on each side");
  });
});

describe("decodeAssetDataUri", () => {
  it("decodes a data URI and refuses anything else", async () => {
    const uri = `data:image/png;base64,${png(3, 2).toString("base64")}`;
    await expect(decodeAssetDataUri(uri)).resolves.toMatchObject({ mimeType: "image/png", width: 3, height: 2 });
    expect(await refusal(decodeAssetDataUri("https://example.com/logo.png"))).toMatch(/must be a data URI/);
  });

  it("trusts the bytes, not the declared type", async () => {
    const jpeg = await sharp({ create: { width: 5, height: 5, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    await expect(decodeAssetDataUri(`data:image/png;base64,${jpeg.toString("base64")}`)).resolves.toMatchObject({ mimeType: "image/jpeg" });
  });
});
