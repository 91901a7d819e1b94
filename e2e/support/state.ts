// What the global setup hands to the test workers (through a JSON file named by E2E_STATE_FILE), and the
// shared pool of pre-created organizations that workers claim from.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Backend } from "./databases";
import { ROOT } from "./servers";

export type ServerInfo = {
  backend: Backend;
  baseURL: string;
  port: number;
  databaseUrl: string;
  dataDir: string;
  logFile: string;
  pid: number;
};

export type E2EState = {
  runId: string;
  runDir: string;
  servers: Partial<Record<Backend, ServerInfo>>;
};

export type Org = { slug: string; plan: "free" | "premium"; token: string };

export function readState(): E2EState {
  const file = process.env.E2E_STATE_FILE;
  if (!file) throw new Error("E2E_STATE_FILE is not set: run the tests through `npx playwright test` (the global setup sets it).");
  return JSON.parse(readFileSync(file, "utf8")) as E2EState;
}

const TSX = path.join(ROOT, "node_modules/.bin/tsx");

export type CommandResult = { code: number; stdout: string; stderr: string };

/** Runs a TypeScript script of this repository with tsx, against a database. */
export function runTsx(script: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ["--tsconfig", "tsconfig.json", script, ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Creates organizations in one process (see create-orgs.ts). */
export async function createOrgs(
  server: Pick<ServerInfo, "databaseUrl" | "dataDir">,
  prefix: string,
  free: number,
  premium: number,
): Promise<Org[]> {
  const result = await runTsx("e2e/support/create-orgs.ts", [prefix, String(free), String(premium)], {
    DATABASE_URL: server.databaseUrl,
    DATA_DIR: server.dataDir,
  });
  if (result.code !== 0) throw new Error(`create-orgs failed (${result.code}):\n${result.stderr}`);
  const last = result.stdout.trim().split("\n").at(-1) ?? "[]";
  return JSON.parse(last) as Org[];
}

function poolDir(state: E2EState, backend: Backend, plan: Org["plan"]): string {
  return path.join(state.runDir, "pool", backend, plan);
}

export function fillPool(state: E2EState, backend: Backend, orgs: Org[]): void {
  for (const org of orgs) {
    const dir = poolDir(state, backend, org.plan);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${org.slug}.json`), JSON.stringify(org));
  }
}

/** Takes one unused organization from the shared pool, or null when the pool is empty. */
export function claimFromPool(state: E2EState, backend: Backend, plan: Org["plan"], claimant: string): Org | null {
  const dir = poolDir(state, backend, plan);
  const claimed = path.join(state.runDir, "pool", "claimed");
  mkdirSync(claimed, { recursive: true });
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return null;
  }
  // Start at a claimant-dependent offset so that parallel workers rarely race for the same file.
  const offset = [...claimant].reduce((a, c) => a + c.charCodeAt(0), 0) % Math.max(1, entries.length);
  for (let i = 0; i < entries.length; i++) {
    const name = entries[(i + offset) % entries.length]!;
    const target = path.join(claimed, `${backend}-${name}`);
    try {
      renameSync(path.join(dir, name), target); // atomic: exactly one claimant wins
    } catch {
      continue;
    }
    return JSON.parse(readFileSync(target, "utf8")) as Org;
  }
  return null;
}
