// npm run bench:wallet — Lighthouse on the wallet page at phone size (issue 19's figures): performance,
// accessibility, CLS, LCP and TBT, for a guest (a shared link) and the recipient (the email's
// `?recipient=true` link). It starts the built app on a fresh database, issues a credential with the
// demo organization's token, opens the page once (so the previews are rendered and cached, as they are
// after the email went out), then runs Lighthouse's mobile form factor with its default simulated
// throttling in a 390×844 viewport (an iPhone 12-14: device pixel ratio 3).
//
//   npm run bench:wallet                          this checkout
//   npm run bench:wallet -- --baseline <dir>      also a checkout of main built in <dir>, interleaved
//                                                 (A, B, A, B) so the machine's load hits both alike
// Env: BENCH_RUNS (default 3 per view and app; the median is reported), CHROME_PATH (/usr/bin/chromium),
// BENCH_DPR (3), BENCH_SAVE (a directory: each run's Lighthouse JSON report is written there).
import { execSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { issueDemoCredential, startBenchServer, type BenchServer } from "./bench/app-server";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DPR = Number(process.env.BENCH_DPR ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// TOOLCHAIN.md's flags for Debian's Chromium on these machines.
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

type Figures = { performance: number; accessibility: number; cls: number; lcpMs: number; tbtMs: number; fcpMs: number; bytes: number };
type App = { label: string; server: BenchServer; pageUrl: string };

function argValue(name: string): string | null {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
}

/** Issues one credential through the API with the demo token and returns its wallet URL on this server. */
async function issueOne(server: BenchServer): Promise<string> {
  const credential = await issueDemoCredential(server);
  // The page on this server (PUBLIC_URL may name another host; the bench reads the page where it runs).
  // As localhost, the host PUBLIC_URL names by default: the page and its previews share one origin, as in production.
  const pageUrl = `${server.url.replace("127.0.0.1", "localhost")}/credentials/${credential.publicId}`;
  await warm(pageUrl);
  return pageUrl;
}

/** Opens the page and every image it names once: the previews render on first request and are cached after. */
async function warm(pageUrl: string) {
  const html = await (await fetch(pageUrl)).text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/(?:src|srcSet|srcset)="([^"]+)"/g)) {
    for (const part of m[1]!.replaceAll("&amp;", "&").split(",")) {
      const u = part.trim().split(/\s+/)[0];
      if (u && /\/previews\//.test(u)) urls.add(new URL(u, pageUrl).href);
    }
  }
  // Previews are addressed by PUBLIC_URL; fetch them from this server.
  for (const u of urls) {
    const local = new URL(pageUrl);
    const target = new URL(u);
    target.protocol = local.protocol;
    target.host = local.host;
    const res = await fetch(target);
    if (res.status !== 200) throw new Error(`${target} answered ${res.status}`);
    await res.arrayBuffer();
  }
}

async function lighthouseRun(url: string, saveAs: string): Promise<Figures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] },
      {
        extends: "lighthouse:default",
        settings: {
          formFactor: "mobile",
          screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: DPR, disabled: false },
          // Lighthouse's default: simulated throttling (slow 4G, 4x CPU slowdown).
          throttlingMethod: "simulate",
        },
      },
    );
    if (!result) throw new Error("Lighthouse returned no result");
    const lhr = result.lhr;
    if (process.env.BENCH_SAVE) {
      mkdirSync(process.env.BENCH_SAVE, { recursive: true });
      writeFileSync(path.join(process.env.BENCH_SAVE, `${saveAs}.json`), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? NaN) * 100),
      cls: numeric("cumulative-layout-shift"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      fcpMs: numeric("first-contentful-paint"),
      bytes: numeric("total-byte-weight"),
    };
  } finally {
    chrome.kill();
  }
}

function lighthouseVersion(): string {
  return (JSON.parse(readFileSync("node_modules/lighthouse/package.json", "utf8")) as { version: string }).version;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function main() {
  const baseline = argValue("--baseline");
  const apps: App[] = [];
  try {
    for (const [label, cwd] of [["this checkout", undefined], ...(baseline ? [["baseline " + baseline, baseline]] : [])] as [
      string,
      string | undefined,
    ][]) {
      const server = await startBenchServer({}, { cwd });
      apps.push({ label, server, pageUrl: "" });
      apps[apps.length - 1]!.pageUrl = await issueOne(server);
    }
    const views = [
      ["guest", ""],
      ["recipient", "?recipient=true"],
    ] as const;
    const results = new Map<string, Figures[]>();
    const load: string[] = [];
    for (let round = 0; round < RUNS; round++) {
      // Interleaved: each round measures every app and view once, in turn.
      for (const [view, query] of views) {
        for (const app of [...apps].sort(() => (round % 2 ? -1 : 1))) {
          const key = `${app.label} | ${view}`;
          const figures = await lighthouseRun(app.pageUrl + query, `${apps.indexOf(app) === 0 ? "this" : "baseline"}-${view}-${round + 1}`);
          results.set(key, [...(results.get(key) ?? []), figures]);
          console.error(
            `round ${round + 1} ${key}: perf ${figures.performance}, a11y ${figures.accessibility}, CLS ${figures.cls.toFixed(3)}, LCP ${figures.lcpMs.toFixed(0)} ms, TBT ${figures.tbtMs.toFixed(0)} ms`,
          );
        }
      }
      load.push(execSync("uptime").toString().trim());
    }
    console.log(
      `\nLighthouse ${lighthouseVersion()}, mobile form factor, 390×844 at DPR ${DPR}, simulated throttling (default), ${CHROME_PATH}; median of ${RUNS} runs`,
    );
    console.log(`load during the runs: ${load.map((l) => l.replace(/.*load average:\s*/, "")).join(" | ")}\n`);
    console.log("| app | viewer | performance | accessibility | CLS | LCP ms | TBT ms | FCP ms | bytes |");
    console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (const [key, runs] of results) {
      const m = (f: (x: Figures) => number) => median(runs.map(f));
      console.log(
        `| ${key.replace(" | ", " | ")} | ${m((x) => x.performance)} | ${m((x) => x.accessibility)} | ${m((x) => x.cls).toFixed(3)} | ${m((x) => x.lcpMs).toFixed(0)} | ${m((x) => x.tbtMs).toFixed(0)} | ${m((x) => x.fcpMs).toFixed(0)} | ${m((x) => x.bytes).toFixed(0)} |`,
      );
    }
    console.log("\ngoals: performance ≥ 95, accessibility 100, CLS ≤ 0.05");
  } finally {
    await Promise.all(apps.map((a) => a.server.stop()));
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
