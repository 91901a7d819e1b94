// npm run bench:render-stages — the renderer alone, for the seeded designs: per-stage timings (p50
// over warm runs, each with a new recipient name and credential id as when issuing, plus the very
// first run of the process), CPU time (a check on wall times when the machine is busy) and RSS
// (resvg-js 2.6 leaks slowly). `npm run bench:render` measures the whole preview pipeline.
//
//   npm run bench:render-stages -- [runs=40] [widthPx=1600]      WARM=1 calls warmUpRenderer() first
import { Resvg } from "@resvg/resvg-js";
import { DesignDocument } from "../lib/render/document";
import { SEED_DESIGNS } from "../lib/designs/seed-documents";
import { sampleAttributeValues } from "../lib/render/attributes";
import { defaultFontLibrary } from "../lib/render/fonts";
import { encodePng, unpremultiply } from "../lib/render/png";
import { DEFAULT_PNG_COMPRESSION, pdfOf, pngOf, prepareRender, svgOf, warmUpRenderer } from "../lib/render/render";

const runs = Number(process.argv[2] ?? 40);
const widthPx = Number(process.argv[3] ?? 1600);

const FIRST = ["Alex", "Maria", "Chen", "Aisha", "Lukas", "Sofia", "Kenji", "Olivia", "Mateo", "Priya", "Noah", "Elena"];
const LAST = ["Morgan", "García", "Wang", "Okafor", "Schneider", "Rossi", "Tanaka", "Johnson", "Silva", "Patel", "Kowalski"];
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (v: number) => v.toFixed(1).padStart(6);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

let t = performance.now();
defaultFontLibrary();
console.log(`font library: ${(performance.now() - t).toFixed(1)} ms, ${(defaultFontLibrary().bytesLoaded / 1024).toFixed(0)} KiB of WOFF`);
if (process.env.WARM === "1") {
  t = performance.now();
  await warmUpRenderer();
  console.log(`warmUpRenderer: ${(performance.now() - t).toFixed(1)} ms`);
}

const rss0 = process.memoryUsage().rss;
for (const seed of SEED_DESIGNS) {
  const doc = DesignDocument.parse(seed.document);
  const base = sampleAttributeValues(seed.type);
  const meta = { title: "Bench", author: "Org", subject: "Group", url: base["credential.url"] ?? null };
  const rows: Record<string, number>[] = [];
  for (let i = 0; i <= runs; i++) {
    // A new recipient and credential id each time, as when issuing: their outlines are not cached.
    const values = {
      ...base,
      "recipient.name": `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}`,
      "credential.id": `cred_01jy6v7s2k8m4q9t${String(i).padStart(10, "0")}`,
    };
    const c0 = cpu();
    const a = performance.now();
    const prepared = await prepareRender(doc, values);
    const b = performance.now();
    await pngOf(prepared, widthPx);
    const c = performance.now();
    const c1 = cpu();
    await pdfOf(prepared, meta);
    const d = performance.now();
    const c2 = cpu();
    // Stage split of the PNG (synchronous resvg, so the two parts can be told apart).
    const svg = svgOf(prepared);
    const e = performance.now();
    const img = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: "width", value: widthPx } }).render();
    const f = performance.now();
    const px = img.pixels;
    unpremultiply(px);
    await encodePng(px, img.width, img.height, DEFAULT_PNG_COMPRESSION);
    const g = performance.now();
    const row = {
      prepare: b - a,
      svg: e - d,
      resvg: f - e,
      encode: g - f,
      png: c - a,
      pngCpu: c1 - c0,
      pdf: b - a + (d - c),
      pdfCpu: c2 - c1 + (b - a),
      both: d - a,
    };
    if (i === 0) {
      console.log(
        `${seed.name.padEnd(20)} first run: prepare ${fmt(row.prepare)}  png ${fmt(row.png)}  pdf ${fmt(row.pdf)}  png+pdf ${fmt(row.both)} ms`,
      );
      continue;
    }
    rows.push(row);
  }
  const m = (k: string) => fmt(p50(rows.map((r) => r[k]!)));
  console.log(
    `${seed.name.padEnd(20)} p50:       prepare ${m("prepare")}  (svg ${m("svg")}  resvg ${m("resvg")}  encode ${m("encode")})  ` +
      `PNG ${m("png")} [cpu ${m("pngCpu")}]  PDF ${m("pdf")} [cpu ${m("pdfCpu")}]  PNG+PDF ${m("both")} ms`,
  );
}
console.log(`rss growth over the run: ${((process.memoryUsage().rss - rss0) / 1048576).toFixed(1)} MiB`);
