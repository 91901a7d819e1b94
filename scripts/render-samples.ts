// Renders every seeded design with short, long, CJK and accented names (and without an expiry date)
// into /tmp/render-check, as PNG and PDF, and prints timings. For looking at, not for CI:
//
//   npm run render:samples -- [outDir]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DesignDocument } from "../lib/render/document";
import { SEED_DESIGNS } from "../lib/designs/seed-documents";
import { sampleAttributeValues } from "../lib/render/attributes";
import { pdfOf, pngOf, prepareRender } from "../lib/render/render";

const outDir = process.argv[2] ?? "/tmp/render-check";
mkdirSync(outDir, { recursive: true });

const LONG_NAME = "Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinha"; // 60 characters
const VARIANTS: { key: string; values: Record<string, string | null> }[] = [
  { key: "short", values: { "recipient.name": "Li Na" } },
  { key: "sample", values: {} },
  {
    key: "long",
    values: {
      "recipient.name": LONG_NAME,
      "group.name": "Professional Certificate in Advanced Machine Learning Operations and Responsible AI Deployment",
      "organization.name": "The International Institute for Continuing Professional Education",
    },
  },
  { key: "zh", values: { "recipient.name": "王小明", "group.name": "高级数据分析", "organization.name": "北京大学继续教育学院" } },
  { key: "ja", values: { "recipient.name": "山田太郎", "group.name": "データ分析上級コース" } },
  { key: "ko", values: { "recipient.name": "김민준", "group.name": "고급 데이터 분석" } },
  { key: "accents", values: { "recipient.name": "Zoë Ångström-Núñez", "credential.expiryDate": null } },
];

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");

for (const seed of SEED_DESIGNS) {
  const doc = DesignDocument.parse(seed.document);
  for (const variant of VARIANTS) {
    const values = { ...sampleAttributeValues(seed.type), ...variant.values };
    const t0 = performance.now();
    const prepared = await prepareRender(doc, values);
    const t1 = performance.now();
    const png = await pngOf(prepared, 1600);
    const t2 = performance.now();
    const pdf = await pdfOf(prepared, {
      title: `${values["group.name"]}: ${values["recipient.name"]}`,
      author: values["organization.name"] ?? "",
      subject: values["group.name"] ?? "",
      url: values["credential.url"] ?? null,
    });
    const t3 = performance.now();
    const base = path.join(outDir, `${slug(seed.name)}-${variant.key}`);
    writeFileSync(`${base}.png`, png);
    writeFileSync(`${base}.pdf`, pdf);
    const warnings = prepared.layout.warnings.length ? `  warnings: ${prepared.layout.warnings.join("; ")}` : "";
    const sizes = prepared.layout.elements
      .filter((e) => e.kind === "text" && e.element.id === "recipient")
      .map((e) => (e.kind === "text" ? `name ${e.fontSize.toFixed(1)}pt x${e.lines.length}` : ""))
      .join("");
    console.log(
      `${path.basename(base)}: layout ${(t1 - t0).toFixed(1)} ms, png ${(t2 - t1).toFixed(1)} ms, pdf ${(t3 - t2).toFixed(1)} ms, ` +
        `${png.length} B png, ${pdf.length} B pdf, ${sizes}${warnings}`,
    );
  }
}
