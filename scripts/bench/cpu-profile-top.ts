// npx tsx scripts/bench/cpu-profile-top.ts <file.cpuprofile> [N] [LAST_SECONDS] — the functions where a V8
// CPU profile (node --cpu-prof; bench servers write one with BENCH_CPU_PROF=<dir>) spent its time: self
// time summed per package (node_modules/<name>) or source area, the top N functions by self time and by
// total time (itself and what it called). LAST_SECONDS keeps only the samples of the profile's last
// seconds (the measured route of a bench run, without start-up and warm-up).
import { readFileSync } from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Where a frame's code lives: a package name, "app:<dir>" for our sources, or what V8 calls it. */
function areaOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || "native"})`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  const chunk = url.match(/\.next\/server\/chunks\/.*?\[root-of-the-server\]|\.next\/server\/(?:chunks\/)?([^/]+)/);
  if (chunk) return `.next:${chunk[1] ?? "chunk"}`;
  const ours = url.match(/\/(lib\/[^/]+|app|server\.ts|scripts)/);
  if (ours) return `app:${ours[1]}`;
  if (url.startsWith("node:")) return url;
  return url.replace(/^.*\//, "");
}

const [file, topArg, lastArg] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile-top.ts <file.cpuprofile> [N]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const at: number[] = [];
profile.timeDeltas.reduce((t, d, i) => (at[i] = t + d), 0);
const from = lastArg ? at[at.length - 1]! - Number(lastArg) * 1e6 : -Infinity;
const selfMs = new Map<number, number>();
const totalMs = new Map<string, number>();
const label = (n: Node) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*node_modules\//, "").replace(/^.*\/(\.next|lib|app)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
profile.samples.forEach((id, i) => {
  if (at[i]! < from) return;
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  const seen = new Set<string>();
  for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) {
    const name = label(byId.get(node)!);
    if (!seen.has(name)) totalMs.set(name, (totalMs.get(name) ?? 0) + ms);
    seen.add(name);
  }
});
const total = [...selfMs.values()].reduce((a, b) => a + b, 0);

const perFunction = new Map<string, number>();
const perArea = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const { functionName, url } = byId.get(id)!.callFrame;
  const name = label(byId.get(id)!);
  perFunction.set(name, (perFunction.get(name) ?? 0) + ms);
  const area = areaOf(url, functionName);
  perArea.set(area, (perArea.get(area) ?? 0) + ms);
}
const show = (title: string, entries: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [name, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * ms) / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${name}`);
  }
};
console.log(`${file}: ${total.toFixed(0)} ms sampled`);
show("self time per area", perArea, 25);
show("self time per function", perFunction, Number(topArg ?? 40));
show("total time per function (itself and its callees)", totalMs, Number(topArg ?? 40));
