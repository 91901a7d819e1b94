// encodePng: the rows reach zlib band by band; whatever the image's height (one band, several, a
// last band of a few rows), a PNG decoder reads back exactly the pixels given.
import { inflateSync } from "node:zlib";
import { renderAsync } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { encodePng } from "./png";

/** Opaque pixels (so that resvg's premultiplied read-back equals them), varied enough to matter. */
function pixels(width: number, height: number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  let seed = 7;
  for (let i = 0; i < px.length; i += 4) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    px[i] = seed & 0xff;
    px[i + 1] = (seed >>> 8) & 0xff;
    px[i + 2] = (i / 4) % 251;
    px[i + 3] = 255;
  }
  return px;
}

/** The IDAT data, inflated, with each row's filter byte checked and removed. */
function rowsOf(png: Uint8Array, width: number): Uint8Array {
  const buf = Buffer.from(png);
  const idat: Buffer[] = [];
  for (let o = 8; o < buf.length;) {
    const length = buf.readUInt32BE(o);
    if (buf.toString("latin1", o + 4, o + 8) === "IDAT") idat.push(buf.subarray(o + 8, o + 8 + length));
    o += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const height = raw.length / (stride + 1);
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(0);
    out.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return out;
}

describe("encodePng", () => {
  it.each([
    ["one row", 5, 1],
    ["one band", 64, 10],
    ["several bands and a short last one", 700, 307],
  ])("%s: the rows read back exactly", async (_label, width, height) => {
    const px = pixels(width, height);
    const png = await encodePng(px, width, height, 3);
    expect(Buffer.from(png.subarray(0, 8)).toString("hex")).toBe("89504e470d0a1a0a");
    expect(Buffer.from(rowsOf(png, width)).equals(Buffer.from(px))).toBe(true);
  });

  it("a real decoder (resvg) reads the image back pixel for pixel", async () => {
    const [width, height] = [300, 400];
    const px = pixels(width, height);
    const png = await encodePng(px, width, height);
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<image width="${width}" height="${height}" href="data:image/png;base64,${Buffer.from(png).toString("base64")}"/></svg>`;
    const back = (await renderAsync(svg, { imageRendering: 1 })).pixels;
    expect(Buffer.from(back).equals(Buffer.from(px))).toBe(true);
  });

  it("refuses a buffer that does not match the size", async () => {
    await expect(encodePng(new Uint8Array(10), 2, 2)).rejects.toThrow("does not match");
  });
});
