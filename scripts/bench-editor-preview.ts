// npm run bench:editor — how long the design editor waits for its live preview: renderDraftDesign
// (validate the draft, load the design's images, lay out, rasterize at 1400 px, as the server action
// does) per starter design, p50/p95 over BENCH_RUNS drafts, each with a changed text so no layout
// cache answers. In-process on a scratch SQLite database; the server action adds its HTTP round trip
// and the PNG's base64 (printed as the data-URI size).
import { cpus, loadavg } from "node:os";
import { scratchDatabase } from "../test/support/db/scratch-database";

await scratchDatabase("bench-editor");
const { createOrganization } = await import("../lib/organizations/service");
const { createDesign } = await import("../lib/designs/service");
const { renderDraftDesign, DRAFT_PREVIEW_WIDTH_PX } = await import("../lib/designs/draft-preview");
const { DesignDocument } = await import("../lib/render/document");
const { SEED_DESIGNS } = await import("../lib/designs/seed-documents");
const { warmUpRenderer } = await import("../lib/render/render");

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

await warmUpRenderer();
const org = await createOrganization({ slug: "bench-editor", plan: "premium" });
console.log(
  `\nDesign editor live preview (renderDraftDesign at ${DRAFT_PREVIEW_WIDTH_PX} px), ${RUNS} drafts per design, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}\n`,
);
console.log("| design | p50 ms | p95 ms | data URI KB |");
console.log("|---|---:|---:|---:|");
for (const seed of SEED_DESIGNS) {
  const document = DesignDocument.parse(seed.document);
  const design = await createDesign(org, { name: seed.name, type: seed.type, document });
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    // Each draft differs, as while typing: a new sample name.
    const started = performance.now();
    const preview = await renderDraftDesign(org, design.id, document, { recipientName: `Ada Lovelace ${i}` });
    if (i >= 3) times.push(performance.now() - started);
    bytes = preview.png.length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `| ${seed.name} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${((bytes * 4) / 3 / 1024).toFixed(0)} |`,
  );
}
