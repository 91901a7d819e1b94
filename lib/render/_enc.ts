import { Resvg } from "@resvg/resvg-js";
import { deflateSync, constants } from "node:zlib";
import { DesignDocument } from "../designs/document";
import { SEED_DESIGNS } from "../designs/seed-documents";
import { sampleAttributeValues } from "./attributes";
import { prepareRender, svgOf } from "./render";
for (const seed of SEED_DESIGNS) {
  const prepared = await prepareRender(DesignDocument.parse(seed.document), sampleAttributeValues(seed.type));
  const svg = svgOf(prepared);
  const img = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: "width", value: 1600 } }).render();
  const px = img.pixels; const w = img.width, h = img.height;
  let t = performance.now(); const png = img.asPng(); console.log(seed.name, "asPng", (performance.now()-t).toFixed(1), png.length);
  // RGB + filter none / up
  for (const ch of [3, 4]) for (const filter of [0, 1, 2]) for (const level of [1, 3, 6]) for (const strategy of [constants.Z_DEFAULT_STRATEGY, constants.Z_RLE]) {
    t = performance.now();
    const stride = w * ch + 1;
    const raw = Buffer.allocUnsafe(stride * h);
    for (let y = 0; y < h; y++) {
      const o = y * stride; raw[o] = filter;
      const src = y * w * 4;
      if (ch === 4 && filter === 0) { px.copy(raw, o + 1, src, src + w * 4); continue; }
      let p = o + 1;
      for (let x = 0; x < w; x++) {
        const s = src + x * 4;
        for (let c = 0; c < ch; c++) {
          const v = px[s + c]!;
          let pred = 0;
          if (filter === 1) pred = x > 0 ? px[s - 4 + c]! : 0;
          else if (filter === 2) pred = y > 0 ? px[s - w * 4 + c]! : 0;
          raw[p++] = (v - pred) & 255;
        }
      }
    }
    const t1 = performance.now();
    const z = deflateSync(raw, { level, strategy });
    const t2 = performance.now();
    console.log(`  ch${ch} f${filter} l${level} s${strategy}: prep ${(t1-t).toFixed(1)} deflate ${(t2-t1).toFixed(1)} size ${z.length}`);
  }
}
