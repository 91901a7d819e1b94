// npm run bench:render — the preview pipeline's figures, per seeded design (and an Arabic name on the
// classic design: shaped, right to left, with a script fallback face):
//   1. cold PNG (1600 px) and cold PDF render times, p50/p95, in this process: the renderer warmed up
//      and the design's fonts loaded (the first render, which reads the families no earlier design
//      used, is timed on its own), but every render gets a new recipient name, credential id and wallet URL,
//      so the name, id and QR code are drawn afresh each time (as for each new credential). Fixed texts
//      ("Certificate", labels) come from the renderer's outline cache, as they do in a running server;
//   2. resident memory (RSS) before and after BENCH_MEMORY_RENDERS (2,000) such renders: PNG and PDF
//      alternately, cycling through the designs;
//   3. cached hits through HTTP at 20 connections against the built app (`npm start`): requests/s of
//      one already-rendered preview URL (PNG, PDF) next to /livez (the app's trivial-route ceiling),
//      measured in interleaved slices so that a shared machine's changing load hits all alike.
// Prints a markdown table. Env: BENCH_RUNS (cold renders per design and format, default 60),
// BENCH_MEMORY_RENDERS (default 2000), BENCH_SECONDS (per HTTP target, default 10), BENCH_HTTP=0 to
// skip the HTTP part (no built app needed).
import { cpus, loadavg } from "node:os";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { DesignDocument } from "../lib/render/document";
import { SEED_DESIGNS } from "../lib/designs/seed-documents";
import { sampleAttributeValues } from "../lib/render/attributes";
import { defaultFontLibrary } from "../lib/render/fonts";
import { renderPdf, renderPng, warmUpRenderer } from "../lib/render/render";
import { startBenchServer } from "./bench/app-server";
import { runLoad, type LoadResult } from "./bench/load";

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const MEMORY_RENDERS = Number(process.env.BENCH_MEMORY_RENDERS ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_HTTP=0 skips the HTTP part (no built app needed): the renderer's own figures only. */
const HTTP = process.env.BENCH_HTTP !== "0";
const ROUNDS = 5;
const CONNECTIONS = 20;
const WIDTH_PX = 1600;
const SERVICE_VERSION = "2022-10-26";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const FIRST = ["Alex", "Maria", "Chen", "Aisha", "Lukas", "Sofia", "Kenji", "Olivia", "Mateo", "Priya", "Noah", "Elena", "Zoë", "Björn"];
/** Arabic names for the shaped-script row: joined, right to left, in Noto Sans Arabic. */
const ARABIC_FIRST = ["محمد", "فاطمة", "علي", "عائشة", "حسن", "مريم", "يوسف", "نور", "خالد", "ليلى"];
const ARABIC_LAST = ["العلي", "حسين", "الأحمد", "منصور", "الخطيب", "سليمان", "عبد الله", "الرشيد"];
const LAST = ["Morgan", "García", "Wang", "Okafor", "Schneider", "Rossi", "Tanaka", "Johnson", "Silva", "Patel", "Kowalski", "Ångström"];

let serial = 0;
/** Values no earlier render had: a new name, credential id, public id and so wallet URL (QR code). */
function freshValues(base: Record<string, string | null>, arabic = false): Record<string, string | null> {
  const i = serial++;
  const hex = i.toString(16).padStart(12, "0");
  const publicId = `7c1e2a40-5b6d-4e8f-9a0b-${hex}`;
  return {
    ...base,
    "recipient.name": arabic
      ? `${ARABIC_FIRST[i % ARABIC_FIRST.length]} ${ARABIC_LAST[(i * 7 + Math.floor(i / ARABIC_FIRST.length)) % ARABIC_LAST.length]} ${i}`
      : `${FIRST[i % FIRST.length]} ${LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length]} ${i}`,
    "credential.id": `cred_01jy6v7s2k8m4q9t${i.toString(36).padStart(10, "0")}`,
    "credential.publicId": publicId,
    "credential.url": `https://wallet.example.com/credentials/${publicId}`,
  };
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mib = (bytes: number) => bytes / 1048576;
const ms = (v: number) => v.toFixed(1);

type Seed = (typeof SEED_DESIGNS)[number];
type ColdRow = { first: number; pngP50: number; pngP95: number; pdfP50: number; pdfP95: number; pngCpu: number; pdfCpu: number };

/** CPU time of the whole process (all threads: resvg renders on libuv's pool), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function pdfMeta(values: Record<string, string | null>) {
  return {
    title: `${values["group.name"]}: ${values["recipient.name"]}`,
    author: values["organization.name"] ?? "",
    subject: values["group.name"] ?? "",
    url: values["credential.url"] ?? null,
  };
}

async function coldRenders(seed: Seed, arabic = false): Promise<ColdRow> {
  const doc = DesignDocument.parse(seed.document);
  const base = sampleAttributeValues(seed.type);
  // One render of each kind outside the percentiles: this design's fixed texts enter the outline
  // cache, as in a server, and its font families not used before are read (fonts load lazily): the
  // first PNG's time is reported on its own.
  const firstStart = performance.now();
  await renderPng(doc, freshValues(base, arabic), {}, { widthPx: WIDTH_PX });
  const first = performance.now() - firstStart;
  await renderPdf(doc, freshValues(base, arabic), {}, pdfMeta(base));
  const png: number[] = [];
  const pdf: number[] = [];
  const pngCpu: number[] = [];
  const pdfCpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const v1 = freshValues(base, arabic);
    let t = performance.now();
    let c = cpuMs();
    await renderPng(doc, v1, {}, { widthPx: WIDTH_PX });
    png.push(performance.now() - t);
    pngCpu.push(cpuMs() - c);
    const v2 = freshValues(base, arabic);
    t = performance.now();
    c = cpuMs();
    await renderPdf(doc, v2, {}, pdfMeta(v2));
    pdf.push(performance.now() - t);
    pdfCpu.push(cpuMs() - c);
  }
  return {
    first,
    pngP50: percentile(png, 50),
    pngP95: percentile(png, 95),
    pdfP50: percentile(pdf, 50),
    pdfP95: percentile(pdf, 95),
    pngCpu: percentile(pngCpu, 50),
    pdfCpu: percentile(pdfCpu, 50),
  };
}

async function memoryRun(): Promise<{ before: number; after: number; afterGc: number; peak: number; seconds: number }> {
  const docs = SEED_DESIGNS.map((s) => ({ doc: DesignDocument.parse(s.document), base: sampleAttributeValues(s.type) }));
  gc();
  const before = process.memoryUsage().rss;
  let peak = before;
  const started = performance.now();
  for (let i = 0; i < MEMORY_RENDERS; i++) {
    const { doc, base } = docs[i % docs.length]!;
    const values = freshValues(base);
    if (i % 2 === 0) await renderPng(doc, values, {}, { widthPx: WIDTH_PX });
    else await renderPdf(doc, values, {}, pdfMeta(values));
    if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  const after = process.memoryUsage().rss;
  gc();
  await new Promise((r) => setTimeout(r, 100));
  return { before, after, afterGc: process.memoryUsage().rss, peak: Math.max(peak, after), seconds: (performance.now() - started) / 1000 };
}

type HttpRow = { png: LoadResult; pdf: LoadResult };

async function httpRuns(): Promise<{ ceiling: LoadResult; ceilings: LoadResult[]; rows: Map<string, HttpRow> }> {
  const server = await startBenchServer();
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": SERVICE_VERSION, "Content-Type": "application/json" };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${await res.text()}`);
      return (await res.json()) as unknown;
    };
    // The demo organization's group uses the three seeded designs.
    const groups = (await api("GET", "/v1/groups")) as { data: { id: string; designIds: string[] }[] };
    const group = groups.data.find((g) => g.designIds.length === SEED_DESIGNS.length) ?? groups.data[0]!;
    const credential = (await api("POST", "/v1/credentials", { groupId: group.id, recipient: { name: "Bench Mark" } })) as { id: string };
    const designs = (await api("GET", `/v1/credentials/${credential.id}/designs`)) as {
      name: string;
      previews: { format: string; url: string }[];
    }[];
    // Preview URLs are built from PUBLIC_URL; ask the server we started for their paths.
    const local = (url: string) => `${server.url}${new URL(url).pathname}`;

    // Every target is measured in ROUNDS slices, interleaved (ceiling, each preview, ceiling, ...):
    // on a shared machine whose load drifts, each target then sees the same mix of quiet and busy
    // moments, and the ratios stay meaningful.
    const targets: { key: string; url: string }[] = [{ key: "ceiling", url: `${server.url}/livez` }];
    for (const d of designs) {
      for (const format of ["png", "pdf"])
        targets.push({ key: `${d.name}|${format}`, url: local(d.previews.find((p) => p.format === format)!.url) });
    }
    for (const target of targets) await runLoad({ url: target.url, connections: CONNECTIONS, seconds: 1 }); // warm up: renders and caches
    const slices = new Map<string, LoadResult[]>(targets.map((x) => [x.key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets)
        slices.get(target.key)!.push(await runLoad({ url: target.url, connections: CONNECTIONS, seconds: SECONDS / ROUNDS }));
    }
    const combine = (results: LoadResult[]): LoadResult => {
      const requests = results.reduce((n, r) => n + r.requests, 0);
      const seconds = results.reduce((n, r) => n + r.seconds, 0);
      const mid = (k: "p50" | "p95" | "p99") =>
        percentile(
          results.map((r) => r[k]),
          50,
        );
      return {
        requests,
        errors: results.reduce((n, r) => n + r.errors, 0),
        seconds,
        rps: requests / seconds,
        p50: mid("p50"),
        p95: mid("p95"),
        p99: mid("p99"),
      };
    };
    const ceilingSlices = slices.get("ceiling")!;
    const ceiling = combine(ceilingSlices);
    const rows = new Map<string, HttpRow>();
    for (const d of designs) rows.set(d.name, { png: combine(slices.get(`${d.name}|png`)!), pdf: combine(slices.get(`${d.name}|pdf`)!) });
    return { ceiling, ceilings: ceilingSlices, rows };
  } finally {
    await server.stop();
  }
}

async function main() {
  const loadStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  let t = performance.now();
  defaultFontLibrary();
  await warmUpRenderer();
  const warmMs = performance.now() - t;
  const rssStart = process.memoryUsage().rss;

  const cold = new Map<string, ColdRow>();
  for (const seed of SEED_DESIGNS) cold.set(seed.name, await coldRenders(seed));
  // The shaped-script figure: an Arabic name on the classic design (Great Vibes falls back to Noto Sans Arabic).
  const arabicRow = `${SEED_DESIGNS[0]!.name}, Arabic name`;
  cold.set(arabicRow, await coldRenders(SEED_DESIGNS[0]!, true));
  const memory = await memoryRun();
  t = performance.now();
  const http = HTTP
    ? await httpRuns()
    : { ceiling: { requests: 0, errors: 0, seconds: 0, rps: NaN, p50: 0, p95: 0, p99: 0 }, ceilings: [], rows: new Map<string, HttpRow>() };
  const httpSeconds = (performance.now() - t) / 1000;

  console.log(
    `\nnode ${process.version}, ${cpus().length} cores, load average ${loadStart} at the start and ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} at the end`,
  );
  console.log(
    `Cold renders: ${WIDTH_PX} px PNG and vector PDF, ${RUNS} per design and format, each with new values; fonts + warm-up ${warmMs.toFixed(0)} ms`,
  );
  console.log(
    `HTTP: ${CONNECTIONS} connections, ${SECONDS} s per target, built app on SQLite; targets interleaved in ${ROUNDS} rounds (/livez per round: ${http.ceilings.map((c) => c.rps.toFixed(0)).join(", ")} req/s); ${httpSeconds.toFixed(0)} s in all\n`,
  );
  console.log(
    "| design | first PNG ms (new fonts read) | cold PNG p50 ms | cold PNG p95 ms | PNG CPU p50 ms | cold PDF p50 ms | cold PDF p95 ms | PDF CPU p50 ms | cached PNG req/s | cached PDF req/s | /livez req/s | PNG ratio | PDF ratio |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const ceiling = http.ceiling.rps;
  for (const name of [...SEED_DESIGNS.map((s) => s.name), arabicRow]) {
    const c = cold.get(name)!;
    const h = http.rows.get(name);
    const cells = h
      ? [h.png.rps.toFixed(0), h.pdf.rps.toFixed(0), ceiling.toFixed(0), (h.png.rps / ceiling).toFixed(2), (h.pdf.rps / ceiling).toFixed(2)]
      : ["n/a", "n/a", ceiling.toFixed(0), "n/a", "n/a"];
    console.log(
      `| ${name} | ${ms(c.first)} | ${ms(c.pngP50)} | ${ms(c.pngP95)} | ${ms(c.pngCpu)} | ${ms(c.pdfP50)} | ${ms(c.pdfP95)} | ${ms(c.pdfCpu)} | ${cells.join(" | ")} |`,
    );
  }
  const errors = [http.ceiling, ...[...http.rows.values()].flatMap((r) => [r.png, r.pdf])].reduce((n, r) => n + r.errors, 0);
  console.log(`\nHTTP errors (non-200 answers): ${errors}`);
  console.log("\n| memory | RSS MiB |");
  console.log("|---|---:|");
  console.log(`| after loading fonts and warming up the renderer | ${mib(rssStart).toFixed(1)} |`);
  console.log(`| before ${MEMORY_RENDERS} renders (after warm-up and the timed renders) | ${mib(memory.before).toFixed(1)} |`);
  console.log(
    `| after ${MEMORY_RENDERS} renders (${MEMORY_RENDERS / 2} PNG + ${MEMORY_RENDERS / 2} PDF, ${memory.seconds.toFixed(0)} s) | ${mib(memory.after).toFixed(1)} |`,
  );
  console.log(`| after, following a full GC | ${mib(memory.afterGc).toFixed(1)} |`);
  console.log(`| peak sampled during the run | ${mib(memory.peak).toFixed(1)} |`);
  console.log(`| growth (after GC − before) | ${mib(memory.afterGc - memory.before).toFixed(1)} |`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
