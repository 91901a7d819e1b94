// Starts the built app (npm start) on a fresh data directory for a benchmark and returns its URL and
// the demo token it printed.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export type BenchServer = {
  url: string;
  /** The demo organization's token printed on first start; "" when started with `expectDemoToken: false`. */
  token: string;
  /** Its data directory (a worker process started beside it may share it: `sharedDataDir`). */
  dataDir: string;
  /** Stops the server; resolves once the process has exited (its database connections closed, its data directory deleted unless shared). */
  stop: () => Promise<void>;
  process: ChildProcess;
};

/** A port nothing listens on now (the OS picks it), so benchmarks beside other servers do not collide. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startBenchServer(
  env: Record<string, string> = {},
  options: {
    /** false: the database already holds the demo organization (or the bench brings its own token); do not wait for one. */
    expectDemoToken?: boolean;
    /** Another checkout to start (a baseline build to compare with); default: this one. */
    cwd?: string;
    /** Another server's data directory (and SQLite file) to use instead of a fresh one; left in place on stop. */
    sharedDataDir?: string;
  } = {},
): Promise<BenchServer> {
  const expectDemoToken = options.expectDemoToken ?? true;
  const dataDir = options.sharedDataDir ?? mkdtempSync(path.join(tmpdir(), "cis-bench-"));
  const port = await freePort();
  // The server runs in this child itself (tsx as a loader, not a wrapper process), so stopping the child stops it.
  // options.cwd or BENCH_APP_DIR: serve another checkout's build (an older commit, to compare before and
  // after in one run); BENCH_CPU_PROF: a directory where the server writes a V8 CPU profile when it exits.
  const appDir = options.cwd ?? process.env.BENCH_APP_DIR ?? process.cwd();
  const profileArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(process.env.BENCH_CPU_PROF)] : [];
  const child = spawn(process.execPath, [...profileArgs, "--import", "tsx", "scripts/start.ts"], {
    cwd: appDir,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${dataDir}/bench.db`,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_SECOND: "1000000",
      RATE_LIMIT_BURST: "1000000",
      NODE_ENV: "production",
      // Another checkout is served with the build it has (built beforehand).
      ...(process.env.BENCH_APP_DIR ? { BUILD_ON_START: "0" } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      if (!options.sharedDataDir) rmSync(dataDir, { recursive: true, force: true });
      resolve();
    }),
  );
  let output = "";
  const token = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 300_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/cis_[0-9A-Za-z]{40}/);
      if (output.includes(`"event":"server_ready"`) && (match || !expectDemoToken)) {
        clearTimeout(timer);
        resolve(match?.[0] ?? "");
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    dataDir,
    process: child,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Issues and sends one credential of the demo organization's first group; its public id. */
export async function issueDemoCredential(server: BenchServer): Promise<{ publicId: string }> {
  const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26", "Content-Type": "application/json" };
  const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string }[] };
  const created = await fetch(`${server.url}/v1/credentials/create-issue-send`, {
    method: "POST",
    headers,
    body: JSON.stringify({ groupId: groups.data[0]!.id, recipient: { name: "Ada Lovelace", email: "ada@example.com" } }),
  });
  const credential = (await created.json()) as { publicId?: string };
  if (!credential.publicId) throw new Error(`could not issue: ${JSON.stringify(credential)}`);
  return { publicId: credential.publicId };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

export type BenchLayout = {
  /** The process that answers HTTP. */
  server: BenchServer;
  /** Whether the background workers run in a process of their own (BENCH_WORKER=process). */
  separateWorker: boolean;
  /** CPU seconds used so far by every process of the layout. */
  cpuSeconds: () => number;
  stop: () => Promise<void>;
};

/**
 * The app as a benchmark runs it: one process, or with BENCH_WORKER=process the layout the README
 * recommends for production, a web-only process (CIS_BACKGROUND=off) beside a worker-only one
 * (CIS_BACKGROUND=only) on the same database (on SQLite, the web process's file).
 */
export async function startBenchLayout(env: Record<string, string>): Promise<BenchLayout> {
  const separateWorker = process.env.BENCH_WORKER === "process";
  const server = await startBenchServer({ ...env, ...(separateWorker ? { CIS_BACKGROUND: "off" } : {}) });
  const worker = separateWorker
    ? await startBenchServer(
        { ...env, CIS_BACKGROUND: "only", ...(env.DATABASE_URL ? {} : { DATABASE_URL: `file:${server.dataDir}/bench.db` }) },
        { expectDemoToken: false, sharedDataDir: server.dataDir },
      )
    : null;
  const pids = [server.process.pid!, ...(worker ? [worker.process.pid!] : [])];
  return {
    server,
    separateWorker,
    cpuSeconds: () => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0),
    stop: async () => {
      await worker?.stop();
      await server.stop();
    },
  };
}
