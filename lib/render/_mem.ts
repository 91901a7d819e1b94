import { DesignDocument } from "../designs/document";
import { SEED_DESIGNS } from "../designs/seed-documents";
import { sampleAttributeValues } from "./attributes";
import { renderPng, renderPdf } from "./render";
const g = globalThis as unknown as { gc?: () => void };
const seed = SEED_DESIGNS[0]!;
const doc = DesignDocument.parse(seed.document);
const base = sampleAttributeValues(seed.type);
for (let i = 0; i <= 600; i++) {
  const v = { ...base, "recipient.name": `Person Number ${i}` };
  await renderPng(doc, v);
  if (i % 100 === 0) { g.gc?.(); await new Promise((r) => setTimeout(r, 50)); g.gc?.(); const m = process.memoryUsage(); console.log(i, "rss", (m.rss / 1048576).toFixed(0), "heap", (m.heapUsed / 1048576).toFixed(0), "ext", (m.external / 1048576).toFixed(0), "ab", (m.arrayBuffers/1048576).toFixed(0)); }
}
