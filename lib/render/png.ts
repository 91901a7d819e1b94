// PNG encoding of resvg's pixels. resvg-js's own `asPng()` uses adaptive row filters and a slow
// deflate (25-50 ms at 1600 px); unfiltered RGBA rows through Node's native zlib are both faster and
// smaller for these flat, mostly single-colour images (measured at 1600 px: level 6 is 30% smaller
// than resvg's PNG in about 2/3 of the time; level 3 is 3-5x faster at a similar size).
import zlib from "node:zlib";

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  const native = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  if (native) return parts.reduce((crc, p) => native(p, crc), 0) >>> 0;
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([head.subarray(4), data]), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Straightens premultiplied RGBA in place (resvg renders premultiplied; PNG stores straight alpha).
 * Opaque pixels, nearly all of them in a certificate, are left alone.
 */
export function unpremultiply(px: Uint8Array): void {
  const n = px.length >>> 2;
  if (px.byteOffset % 4 !== 0) {
    for (let j = 0; j < px.length; j += 4) straighten(px, j, px[j + 3]!);
    return;
  }
  const u32 = new Uint32Array(px.buffer, px.byteOffset, n);
  for (let i = 0; i < n; i++) {
    const a = u32[i]! >>> 24; // little-endian: alpha is the top byte
    if (a !== 255 && a !== 0) straighten(px, i << 2, a);
  }
}

function straighten(px: Uint8Array, j: number, a: number) {
  if (a === 255 || a === 0) return; // opaque: unchanged; clear: premultiplied colour is already 0
  const f = 255 / a;
  px[j] = Math.min(255, Math.round(px[j]! * f));
  px[j + 1] = Math.min(255, Math.round(px[j + 1]! * f));
  px[j + 2] = Math.min(255, Math.round(px[j + 2]! * f));
}

/** About how much of the filtered image goes to zlib at a time. */
const BAND_BYTES = 256 * 1024;

/**
 * The image's rows, each behind its filter byte (0: none), deflated as one zlib stream. The rows go
 * to zlib band by band through two band buffers, so the main thread fills one while the thread pool
 * deflates the other, and no second copy of the whole image is made (measured at 1600 × 2264: 15.5 ms
 * with one 14.5 MB copy, 11.7 ms by bands; the same for smaller images).
 */
async function deflateRows(rgba: Uint8Array, width: number, height: number, level: number): Promise<Buffer> {
  const stride = width * 4;
  const rowsPerBand = Math.max(1, Math.floor(BAND_BYTES / (stride + 1)));
  const deflate = zlib.createDeflate({ level });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  ended.catch(() => {}); // an error also fails the write in flight, which is what throws
  const src = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const bands = [Buffer.allocUnsafe((stride + 1) * rowsPerBand), Buffer.allocUnsafe((stride + 1) * rowsPerBand)];
  // The write that last used each buffer: zlib works through writes in order, on the thread pool, so
  // while it deflates one band the main thread fills the other, once that one's last write is done.
  const written: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  for (let y0 = 0, b = 0; y0 < height; y0 += rowsPerBand, b ^= 1) {
    await written[b];
    const rows = Math.min(rowsPerBand, height - y0);
    const band = bands[b]!;
    for (let r = 0; r < rows; r++) {
      const o = r * (stride + 1);
      band[o] = 0;
      src.copy(band, o + 1, (y0 + r) * stride, (y0 + r + 1) * stride);
    }
    const filled = band.subarray(0, rows * (stride + 1));
    written[b] = new Promise<void>((resolve, reject) => deflate.write(filled, (error) => (error ? reject(error) : resolve())));
    written[b]!.catch(() => {}); // handled where it is awaited; never an unhandled rejection meanwhile
  }
  await Promise.all(written);
  deflate.end();
  await ended;
  return Buffer.concat(out);
}

/** Encodes straight RGBA pixels as a PNG (8-bit RGBA, unfiltered rows, zlib on the thread pool). */
export async function encodePng(rgba: Uint8Array, width: number, height: number, level = 6): Promise<Uint8Array> {
  const stride = width * 4;
  if (rgba.length !== stride * height) throw new Error("pixel buffer does not match width x height x 4");
  const idat = await deflateRows(rgba, width, height, level);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array(0)),
  ]);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
