// npm run bench:scale — reads/s of typical hot reads with one and with two web processes on one
// PostgreSQL database (docs/operating.md, Several processes), and where the CPU went.
//
// Needs BENCH_POSTGRES_URL (any database on a server the bench may create a scratch database on, e.g.
// the URL scripts/pg-throwaway.sh prints); the scratch database is dropped afterwards.
//
// Two `npm start` processes (background work off, as web processes behind a proxy run) serve the same
// scratch database on two ports. The load generator (this process, scripts/bench/load.ts) keeps
// BENCH_SCALE_CONNECTIONS (16) keep-alive connections busy for BENCH_SECONDS (10) per measurement,
// either all on process 1, or half on each process (what a round-robin proxy would do). The two setups
// alternate (1, 2, 1, 2, …, BENCH_SCALE_ROUNDS rounds) so that the machine's other load hits both alike;
// the table shows each round and the best of each setup.
//
// CPU per process comes from /proc/<pid>/stat (utime + stime) before and after each measurement: the
// two web processes, PostgreSQL (all its processes together) and the load generator. On a machine with
// few cores the second process competes with the first, PostgreSQL and the load generator for the same
// cores, so the gain is bounded by the cores left idle with one process; the CPU columns show how much
// was left.
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { startBenchServer, type BenchServer } from "./bench/app-server";
import { runLoad, type LoadResult } from "./bench/load";
import { createScratchDatabase } from "../test/support/db/postgres-scratch";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 2);
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which is in parentheses and may contain spaces): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The processes of the PostgreSQL server listening on `port` (the postmaster and its backends). */
function postgresPids(port: string): number[] {
  const pids: number[] = [];
  let postmaster: number | null = null;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (cmdline[0]?.endsWith("/postgres") && cmdline.includes(port)) postmaster = Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  if (postmaster === null) return [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (Number(entry) === postmaster || ppid === postmaster) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

type Target = { name: string; path: string; headers: Record<string, string> };
type Measurement = {
  processes: 1 | 2;
  target: string;
  round: number;
  load: LoadResult;
  cpu: { web: number[]; postgres: number; generator: number };
  loadAvg: number;
};

async function measure(
  servers: BenchServer[],
  processes: 1 | 2,
  target: Target,
  round: number,
  pgPort: string | null,
): Promise<Measurement> {
  const used = servers.slice(0, processes);
  const pgBefore = pgPort ? postgresPids(pgPort).reduce((sum, pid) => sum + cpuSeconds(pid), 0) : 0;
  const webBefore = servers.map((s) => cpuSeconds(s.process.pid!));
  const generatorBefore = process.cpuUsage();
  const loadAvg = loadavg()[0]!;
  // Connections spread evenly over the processes used, each share measured by its own load loop.
  const results = await Promise.all(
    used.map((server, k) =>
      runLoad({
        url: server.url + target.path,
        headers: target.headers,
        connections: Math.floor(CONNECTIONS / processes) + (k < CONNECTIONS % processes ? 1 : 0),
        seconds: SECONDS,
      }),
    ),
  );
  const generator = process.cpuUsage(generatorBefore);
  const web = servers.map((s, k) => cpuSeconds(s.process.pid!) - webBefore[k]!);
  const pgAfter = pgPort ? postgresPids(pgPort).reduce((sum, pid) => sum + cpuSeconds(pid), 0) : 0;
  const seconds = Math.max(...results.map((r) => r.seconds));
  const requests = results.reduce((n, r) => n + r.requests, 0);
  // Latency percentiles: the worse of the shares (each share's own percentiles; close when balanced).
  const load: LoadResult = {
    requests,
    errors: results.reduce((n, r) => n + r.errors, 0),
    seconds,
    rps: results.reduce((n, r) => n + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p95: Math.max(...results.map((r) => r.p95)),
    p99: Math.max(...results.map((r) => r.p99)),
  };
  const perSecond = (cpu: number) => cpu / seconds;
  return {
    processes,
    target: target.name,
    round,
    load,
    cpu: {
      web: web.map(perSecond),
      postgres: perSecond(pgAfter - pgBefore),
      generator: perSecond((generator.user + generator.system) / 1e6),
    },
    loadAvg,
  };
}

async function main() {
  const serverUrl = process.env.BENCH_POSTGRES_URL;
  if (!serverUrl) {
    console.error(
      "bench:scale needs BENCH_POSTGRES_URL=postgresql://user@host:port/postgres (a server it may create a scratch database on; scripts/pg-throwaway.sh start prints one)",
    );
    process.exit(2);
  }
  const scratch = await createScratchDatabase(serverUrl, "cis_bench_scale");
  const pgUrl = new URL(serverUrl);
  const pgPort = ["localhost", "127.0.0.1", "::1", "[::1]"].includes(pgUrl.hostname) ? pgUrl.port || "5432" : null;
  const servers: BenchServer[] = [];
  try {
    const env = { DATABASE_URL: scratch.url, CIS_BACKGROUND: "off", BUILD_ON_START: "0" };
    // The first start migrates and seeds the demo organization (its token is printed); the second joins.
    servers.push(await startBenchServer(env));
    servers.push(await startBenchServer(env, { expectDemoToken: false }));
    const token = servers[0]!.token;
    const headers = { Authorization: `Bearer ${token}`, "Service-Version": "2022-10-26" };
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(
        servers[0]!.url + path,
        body === undefined
          ? { method, headers }
          : { method, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) },
      );
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const groups = (await api("GET", "/v1/groups")) as { data: { id: string }[] };
    const credential = (await api("POST", "/v1/credentials", {
      groupId: groups.data[0]!.id,
      recipient: { name: "Ada Lovelace", email: "ada@example.com" },
    })) as { id: string };
    const issued = (await api("POST", `/v1/credentials/${credential.id}/issue`)) as { id: string; publicId: string };
    const targets: Target[] = [
      { name: "GET /v1/credentials/{id}", path: `/v1/credentials/${issued.id}`, headers },
      { name: "GET /credentials/{publicId} (wallet page)", path: `/credentials/${issued.publicId}`, headers: {} },
    ];

    const measurements: Measurement[] = [];
    for (const target of targets) {
      // Warm both processes (JIT, the page's render caches, connection pools).
      for (const server of servers) await runLoad({ url: server.url + target.path, headers: target.headers, connections: 4, seconds: 2 });
      for (let round = 1; round <= ROUNDS; round++) {
        for (const processes of [1, 2] as const) {
          const m = await measure(servers, processes, target, round, pgPort);
          if (m.load.errors) throw new Error(`${target.name}, ${processes} process(es): ${m.load.errors} failed requests`);
          measurements.push(m);
          console.error(
            `  ${target.name}, ${processes} process(es), round ${round}: ${m.load.rps.toFixed(0)} reads/s (load ${m.loadAvg.toFixed(1)})`,
          );
        }
      }
    }

    console.log(
      `\nbench:scale — ${CONNECTIONS} connections, ${SECONDS} s per measurement, ${ROUNDS} rounds alternating 1 and 2 web processes; ` +
        `PostgreSQL ${pgPort ? `on port ${pgPort}` : "(remote: its CPU is not measured)"}; node ${process.version}, ${cpus().length} CPUs. ` +
        `CPU in cores (CPU seconds per second of the measurement).\n`,
    );
    console.log(
      "| read | processes | round | reads/s | p50 ms | p99 ms | CPU web 1 | CPU web 2 | CPU PostgreSQL | CPU load generator | load avg |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const m of measurements) {
      console.log(
        `| ${m.target} | ${m.processes} | ${m.round} | ${m.load.rps.toFixed(0)} | ${m.load.p50.toFixed(1)} | ${m.load.p99.toFixed(1)} | ` +
          `${m.cpu.web[0]!.toFixed(2)} | ${m.cpu.web[1]!.toFixed(2)} | ${pgPort ? m.cpu.postgres.toFixed(2) : "-"} | ${m.cpu.generator.toFixed(2)} | ${m.loadAvg.toFixed(1)} |`,
      );
    }
    console.log("\n| read | best reads/s, 1 process | best reads/s, 2 processes | gain |");
    console.log("|---|---:|---:|---:|");
    for (const target of targets) {
      const best = (processes: 1 | 2) =>
        Math.max(...measurements.filter((m) => m.target === target.name && m.processes === processes).map((m) => m.load.rps));
      console.log(`| ${target.name} | ${best(1).toFixed(0)} | ${best(2).toFixed(0)} | ${(best(2) / best(1)).toFixed(2)}× |`);
    }
  } finally {
    for (const server of servers) await server.stop();
    await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
