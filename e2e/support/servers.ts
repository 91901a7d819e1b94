// Starting and stopping app servers the way the README says (`npm start`), each on a free port with its
// own environment. Used by the global setup (one server per database) and by the `startServer` fixture
// (extra servers with special configuration on the same database).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { buildIsStale as buildIsStaleIn } from "../../scripts/build-freshness";
import { createWriteStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The environment every test server gets unless a test overrides it. */
export const BASE_SERVER_ENV: Record<string, string> = {
  TRUST_PROXY: "1",
  LOG_LEVEL: "warn",
  HOST: "127.0.0.1",
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_ENV: "production",
  // The global setup built the app once; servers started later must not rebuild it under the
  // running ones (a source edited during a run would otherwise trigger one per server).
  BUILD_ON_START: "0",
};

/**
 * What servers started by a test get on top (restarts after a SIGKILL, other settings, several
 * processes): they load each page's code when it is first visited. Such a server answers a few
 * requests, most of them /v1, which never needs a page; preloading every page cost each start about a
 * second of CPU on cores the other workers' tests share (there are dozens of starts per run). The
 * shared servers of the global setup keep the default, so the preload is still exercised, and so do
 * the processes of many-processes.spec.ts, which stand for a production layout: a page's first visit
 * holds the thread while its code loads, long enough to run out a Redis take's 500 ms.
 */
export const EXTRA_SERVER_ENV: Record<string, string> = { CIS_PRELOAD_PAGES: "off" };

export type RunningServer = {
  baseURL: string;
  port: number;
  env: Record<string, string>;
  logFile: string;
  pid: number;
  /** Everything the server printed so far. */
  output: () => string;
  stop: () => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The same rule as `npm start` (scripts/build-freshness.ts). */
export function buildIsStale(): boolean {
  return buildIsStaleIn(ROOT);
}

/** Builds once, up front, so that servers started in parallel do not each start a build. */
export function buildIfStale(): void {
  if (!buildIsStale()) {
    console.log("[e2e] build is fresh");
    return;
  }
  const started = Date.now();
  console.log("[e2e] building the app (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `npm run build failed (exit ${result.status}):\n${(result.stdout ?? "").slice(-4000)}\n${(result.stderr ?? "").slice(-4000)}`,
    );
  }
  console.log(`[e2e] built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/** What this start wrote to its log (the file is shared by restarts: only what follows `offset`). */
function logSince(logFile: string, offset: number): string {
  return existsSync(logFile) ? readFileSync(logFile).subarray(offset).toString("utf8") : "";
}

async function waitForReady(baseURL: string, child: ChildProcess, logFile: string, timeoutMs: number, logOffset: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Set by the exit listener; the cast stops TypeScript narrowing it to null for the whole function.
  let exited = null as string | null;
  child.once("exit", (code, signal) => (exited = signal ? `signal ${signal}` : `code ${code}`));
  while (Date.now() < deadline) {
    if (exited !== null) break;
    // The answer must come from this server: another test's server may hold the port this one could
    // not bind (a free port can be taken between freePort() and listen).
    if (!logSince(logFile, logOffset).includes('"event":"server_ready"')) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      const res = await fetch(`${baseURL}/livez`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        await res.arrayBuffer();
        return;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const tail = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-40).join("\n") : "(no log)";
  killGroup(child, "SIGKILL");
  throw new Error(
    `Server at ${baseURL} ${exited !== null ? `exited (${exited})` : "did not become ready in time"}. Log ${logFile}:\n${tail}`,
  );
}

/**
 * `npm start` with the given environment on a free port. Resolves once /livez answers (worker-only
 * processes answer it too).
 * `env` must name DATABASE_URL and DATA_DIR; PORT and PUBLIC_URL are chosen here unless given.
 */
export async function startAppServer(env: Record<string, string>, logFile: string, timeoutMs = 240_000): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    const logOffset = existsSync(logFile) ? statSync(logFile).size : 0;
    try {
      return await startAppServerOnce(env, logFile, timeoutMs, logOffset);
    } catch (error) {
      // The free port was taken before the server could bind it: try another one.
      if (env.PORT || attempt >= 3 || !logSince(logFile, logOffset).includes("EADDRINUSE")) throw error;
    }
  }
}

async function startAppServerOnce(
  env: Record<string, string>,
  logFile: string,
  timeoutMs: number,
  logOffset: number,
): Promise<RunningServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv: Record<string, string> = { ...BASE_SERVER_ENV, ...env, PORT: String(port) };
  const baseURL = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, ...fullEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: npm → sh → tsx → node all stop together
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  await waitForReady(baseURL, child, logFile, timeoutMs, logOffset);

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(timer);
        log.end();
        resolve();
      });
      killGroup(child, "SIGTERM");
    }));
  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  return { baseURL, port, env: fullEnv, logFile, pid: child.pid!, output, stop };
}
