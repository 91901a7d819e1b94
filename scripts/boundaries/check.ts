// The import-boundary check of `npm run lint:boundaries`: runs dependency-cruiser once with the
// project's rules (.dependency-cruiser.cjs: layers, the renderer's purity, module cycles...), then
// refuses what those rules cannot say:
//   - a loop between folders. dependency-cruiser's `circular` rules see module cycles only; two
//     folders can import each other through different files without any module cycle, and that loop
//     still ties the folders together. So this script collapses the cruised graph to one node per
//     lib/ folder (each file directly in lib/ is its own node, app/ is one node) and fails on every
//     strongly connected set of two or more nodes, naming the imports that close it;
//   - a folder of lib/ (or a file directly in it) that no layer lists (scripts/boundaries/layers.cjs).
// Tests and test helpers are left out of the folder graph: they may reach across layers to set up
// what they test, and they are not part of the design a reader has to hold in mind.
//
// Usage: tsx scripts/boundaries/check.ts [--cwd DIR] [--config FILE] [--layers FILE] ROOTS...
// (defaults: the current directory, .dependency-cruiser.cjs, scripts/boundaries/layers.cjs, lib app).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const DEPCRUISE = fileURLToPath(new URL("../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url));
const TEST_CODE = /\.test\.tsx?$|^test\//;

/** The node of the folder graph a module belongs to, or null for modules outside lib/ and app/. */
export function folderOf(modulePath: string): string | null {
  const inFolder = /^lib\/([^/]+)\//.exec(modulePath);
  if (inFolder) return `lib/${inFolder[1]}/`;
  if (/^lib\/[^/]+$/.test(modulePath)) return modulePath;
  if (modulePath.startsWith("app/")) return "app/";
  return null;
}

/** Folder → folder edges of the production modules, each with the module imports that make it. */
type CruisedModule = { source: string; dependencies?: { resolved: string }[] };
type FolderEdge = { from: string; to: string; imports: string[] };
type Layer = { name: string; why: string; members: string[] };

export function folderEdges(modules: CruisedModule[]): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from || TEST_CODE.test(module.source)) continue;
    for (const dependency of module.dependencies ?? []) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, imports: [] });
      edges.get(key)!.imports.push(`${module.source} -> ${dependency.resolved}`);
    }
  }
  return [...edges.values()];
}

/** The loops of the folder graph: its strongly connected sets of two or more folders (Tarjan). */
export function folderCycles(edges: FolderEdge[]): { folders: string[]; edges: FolderEdge[] }[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: { folders: string[]; edges: FolderEdge[] }[] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const other of next.get(node)!) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node)!, low.get(other)!));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node)!, index.get(other)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1) {
      const inside = new Set(members);
      cycles.push({ folders: members.sort(), edges: edges.filter((e) => inside.has(e.from) && inside.has(e.to)) });
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Folders and files directly in `cwd`/lib that no layer lists (tests excluded). */
export function unlistedFolders(cwd: string, layers: Layer[]): string[] {
  const listed = new Set(layers.flatMap((layer) => layer.members));
  const libDir = path.join(cwd, "lib");
  return readdirSync(libDir)
    .map((name) => (statSync(path.join(libDir, name)).isDirectory() ? `lib/${name}/` : `lib/${name}`))
    .filter((member) => /\/$|\.tsx?$/.test(member) && !TEST_CODE.test(member) && !listed.has(member));
}

type CheckOptions = { cwd?: string; config?: string; layers?: string; roots?: string[] };
type CruiseResult = {
  modules: CruisedModule[];
  summary: {
    totalCruised: number;
    violations: { from: string; to: string; rule: { name: string; severity: string }; cycle?: ({ name: string } | string)[] }[];
  };
};

export function checkBoundaries({
  cwd = process.cwd(),
  config = ".dependency-cruiser.cjs",
  layers = "scripts/boundaries/layers.cjs",
  roots = ["lib", "app"],
}: CheckOptions = {}) {
  const problems: string[] = [];
  const cruise = spawnSync(process.execPath, [DEPCRUISE, ...roots, "--config", config, "--output-type", "json"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  let result: CruiseResult;
  try {
    result = JSON.parse(cruise.stdout) as CruiseResult;
  } catch {
    return { ok: false, problems: [`dependency-cruiser did not run: ${cruise.stderr.trim() || `exit ${cruise.status}`}`] };
  }
  for (const violation of result.summary.violations) {
    if (violation.rule.severity !== "error") continue;
    const via = violation.cycle
      ? ` (cycle: ${violation.cycle.map((step) => (typeof step === "string" ? step : step.name)).join(" -> ")})`
      : "";
    problems.push(`${violation.rule.name}: ${violation.from} -> ${violation.to}${via}`);
  }
  for (const member of unlistedFolders(cwd, require(path.resolve(cwd, layers)) as Layer[])) {
    problems.push(`folder-not-in-a-layer: ${member} is in no layer of ${layers}; add it to the layer it belongs to`);
  }
  for (const cycle of folderCycles(folderEdges(result.modules))) {
    const lines = cycle.edges.map((edge) => `    ${edge.from} -> ${edge.to}, e.g. ${edge.imports[0]}`);
    problems.push(`no-folder-cycles: ${cycle.folders.join(", ")} import one another around a loop:\n${lines.join("\n")}`);
  }
  return { ok: problems.length === 0, problems, modules: result.summary.totalCruised };
}

function parseArguments(argv: string[]): CheckOptions {
  const options: CheckOptions & { roots: string[] } = { roots: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--cwd" || flag === "--config" || flag === "--layers") options[flag.slice(2) as "cwd" | "config" | "layers"] = argv[++i];
    else if (flag) options.roots.push(flag);
  }
  return options.roots.length > 0 ? options : { ...options, roots: undefined };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ok, problems, modules } = checkBoundaries(parseArguments(process.argv.slice(2)));
  if (ok) {
    console.log(`no boundary violations and no loops between folders (${modules} modules cruised)`);
  } else {
    for (const problem of problems) console.error(`error ${problem}`);
    console.error(`\n${problems.length} boundary problem(s)`);
    process.exitCode = 1;
  }
}
