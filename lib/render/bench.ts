// Render benchmark for the seeded designs: per-stage timings (p50 of warm runs, and the first,
// cold run in a fresh process), plus RSS growth (resvg-js 2.6 is known to leak slowly).
//
//   npx tsx lib/render/bench.ts [runs=40] [widthPx=1600]
import { Resvg } from "@resvg/resvg-js";
import { DesignDocument } from "../designs/document";
import { SEED_DESIGNS } from "../designs/seed-documents";
import { sampleAttributeValues } from "./attributes";
import { defaultFontLibrary } from "./fonts";
import { encodePng, unpremultiply } from "./png";
import { layoutDocument, pdfOf, pngOf, prepareRender, svgOf } from "./render";

const runs = Number(process.argv[2] ?? 40);
const widthPx = Number(process.argv[3] ?? 1600);

const FIRST = ["Alex", "Maria", "Chen", "Aisha", "Lukas", "Sofia", "Kenji", "Olivia", "Mateo", "Priya", "Noah", "Elena"];
const LAST = ["Morgan", "García", "Wang", "Okafor", "Schneider", "Rossi", "Tanaka", "Johnson", "Silva", "Patel", "Kowalski"];
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (v: number) => v.toFixed(1).padStart(6);

const t0 = performance.now();
defaultFontLibrary();
console.log(`font library: ${(performance.now() - t0).toFixed(1)} ms, ${(defaultFontLibrary().bytesLoaded / 1024).toFixed(0)} KiB of WOFF`);

const rss0 = process.memoryUsage().rss;
for (const seed of SEED_DESIGNS) {
  const doc = DesignDocument.parse(seed.document);
  const base = sampleAttributeValues(seed.type);
  const meta = { title: "Bench", author: "Org", subject: "Group", url: base["credential.url"] ?? null };
  const stages: Record<string, number[]> = { layout: [], satori: [], resvg: [], encode: [], png: [], pdf: [], total: [] };
  for (let i = 0; i <= runs; i++) {
    // A new recipient and credential id each time, as when issuing: their outlines are not cached.
    const values = { ...base, "recipient.name": `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`, "credential.id": `cred_01jy6v7s2k8m4q9t${String(i).padStart(10, "0")}` };
    const a = performance.now();
    await layoutDocument(doc, values);
    const b = performance.now();
    const prepared = await prepareRender(doc, values);
    const c = performance.now();
    const svg = svgOf(prepared);
    const r = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: "width", value: widthPx } }).render();
    const d = performance.now();
    const px = r.pixels;
    unpremultiply(px);
    await encodePng(px, r.width, r.height);
    const e = performance.now();
    const f = performance.now();
    await pngOf(prepared, widthPx);
    const g = performance.now();
    await pdfOf(prepared, meta);
    const h = performance.now();
    const row = {
      layout: b - a,
      satori: c - b - (b - a),
      resvg: d - c,
      encode: e - d,
      png: g - f + (c - b),
      pdf: h - g + (c - b),
      total: c - b + (g - f) + (h - g),
    };
    if (i === 0) {
      console.log(
        `${seed.name.padEnd(20)} first: layout ${fmt(row.layout)}  satori ${fmt(row.satori)}  png ${fmt(row.png)}  pdf ${fmt(row.pdf)} ms`,
      );
      continue;
    }
    for (const [k, v] of Object.entries(row)) stages[k]!.push(v);
  }
  console.log(
    `${seed.name.padEnd(20)} p50:   layout ${fmt(p50(stages.layout!))}  satori ${fmt(p50(stages.satori!))}  ` +
      `resvg ${fmt(p50(stages.resvg!))}  encode ${fmt(p50(stages.encode!))}  png ${fmt(p50(stages.png!))}  pdf ${fmt(p50(stages.pdf!))} ms` +
      `  (png = layout+satori+resvg+encode, pdf = layout+satori+pdf)`,
  );
}
console.log(`rss growth over the run: ${((process.memoryUsage().rss - rss0) / 1048576).toFixed(1)} MiB`);
