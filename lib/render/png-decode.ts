// PNG images decoded for the PDF: straight RGB and an alpha plane (when any pixel is not opaque),
// each deflated, ready to embed as an image XObject and its soft mask. Decoded natively by resvg
// (pdf-lib's embedPng decodes in JavaScript: slow), once per image.
import { renderAsync } from "@resvg/resvg-js";
import { deflateSync } from "node:zlib";
import { assetDataUri, type RenderAsset } from "./assets";
import { RESVG_BASE } from "./raster";

export type DecodedPng = { width: number; height: number; rgb: Uint8Array; alpha: Uint8Array | null };

const decodedPngs = new WeakMap<Uint8Array, Promise<DecodedPng>>();

async function decode(asset: RenderAsset): Promise<DecodedPng> {
  const { width, height } = asset;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<image width="${width}" height="${height}" href="${assetDataUri(asset)}"/></svg>`;
  const img = await renderAsync(svg, { ...RESVG_BASE, imageRendering: 1 });
  const px = img.pixels;
  const count = img.width * img.height;
  const rgb = Buffer.allocUnsafe(count * 3);
  const alpha = Buffer.allocUnsafe(count);
  let opaque = true;
  for (let i = 0, j = 0; i < count; i++, j += 4) {
    const a = px[j + 3]!;
    alpha[i] = a;
    if (a === 255) {
      rgb[i * 3] = px[j]!;
      rgb[i * 3 + 1] = px[j + 1]!;
      rgb[i * 3 + 2] = px[j + 2]!;
    } else {
      opaque = false;
      // resvg's pixels are premultiplied; PDF wants straight colour with a soft mask.
      const f = a === 0 ? 0 : 255 / a;
      rgb[i * 3] = Math.min(255, Math.round(px[j]! * f));
      rgb[i * 3 + 1] = Math.min(255, Math.round(px[j + 1]! * f));
      rgb[i * 3 + 2] = Math.min(255, Math.round(px[j + 2]! * f));
    }
  }
  return {
    width: img.width,
    height: img.height,
    rgb: deflateSync(rgb, { level: 6 }),
    alpha: opaque ? null : deflateSync(alpha, { level: 6 }),
  };
}

export function decodePng(asset: RenderAsset): Promise<DecodedPng> {
  let p = decodedPngs.get(asset.data);
  if (!p) {
    p = decode(asset);
    decodedPngs.set(asset.data, p);
    p.catch(() => decodedPngs.delete(asset.data));
  }
  return p;
}
