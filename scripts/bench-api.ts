// npm run bench:api — requests/s and latency of /v1 reads on the built app, 20 connections, next to a
// trivial route of the same app (/livez: the framework's ceiling). SQLite always; PostgreSQL too with
// BENCH_POSTGRES_URL (a server the bench may create a scratch database on).
//
// BENCH_APP_DIR=<another checkout with its build> serves that checkout instead (compare two commits in
// one run); BENCH_ROUNDS=N runs the routes N times in turn (A, B, A, B ...) and reports each round.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { runLoad, type LoadResult } from "./bench/load";
import { startBenchServer } from "./bench/app-server";
import { createScratchDatabase } from "../test/support/db/postgres-scratch";

const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Credentials created before measuring: the read and the search see a realistic page, not an empty table. */
const SEEDED = 200;

type Target = { name: string; url: string; headers: Record<string, string>; method?: string; body?: string };

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

function loadAverage(): string {
  return execSync("uptime")
    .toString()
    .trim()
    .replace(/^.*load average/, "load average");
}

async function measure(label: string, databaseUrl: string | undefined) {
  const server = await startBenchServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26" };
    const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string; designIds: string[] }[] };
    const group = groups.data[0]!;
    let credentialId = "";
    for (let i = 0; i < SEEDED; i++) {
      const created = await fetch(`${server.url}/v1/credentials/create-issue-send`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ groupId: group.id, recipient: { name: `Bench Reader ${i}`, email: `reader.${i}@example.com` } }),
      });
      if (created.status !== 201) throw new Error(`seeding answered ${created.status}: ${await created.text()}`);
      credentialId = ((await created.json()) as { id: string }).id;
    }
    // A typical dashboard search: issued credentials of one group, newest first, one page.
    const search = JSON.stringify({
      filter: { AND: [{ status: "issued" }, { groupId: group.id }] },
      sort: { property: "createdAt", order: "desc" },
      limit: 20,
    });
    const only = process.env.BENCH_ONLY;
    const allTargets: Target[] = [
      { name: "GET /livez (ceiling)", url: `${server.url}/livez`, headers: {} },
      { name: "GET /v1/groups/{id}", url: `${server.url}/v1/groups/${group.id}`, headers },
      { name: "GET /v1/designs/{id}", url: `${server.url}/v1/designs/${group.designIds[0]}`, headers },
      { name: "GET /v1/credentials/{id}", url: `${server.url}/v1/credentials/${credentialId}`, headers },
      { name: "POST /v1/credentials/search", url: `${server.url}/v1/credentials/search`, headers, method: "POST", body: search },
    ];
    // BENCH_ONLY=designs: the ceiling and the routes whose name contains it (for a profile of one route).
    const targets = allTargets.filter((t, i) => i === 0 || !only || t.name.includes(only));
    const rounds: { target: Target; result: LoadResult; cpuMs: number }[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const results: { target: Target; result: LoadResult; cpuMs: number }[] = [];
      for (const target of targets) {
        const load = {
          url: target.url,
          headers: target.headers,
          method: target.method,
          body: target.body ? () => target.body! : undefined,
          connections: CONNECTIONS,
        };
        await runLoad({ ...load, seconds: 2 }); // warm up
        // The server's CPU time per answer: less sensitive than req/s to what else the machine runs.
        const cpuBefore = cpuSeconds(server.process.pid!);
        const result = await runLoad({ ...load, seconds: SECONDS });
        results.push({ target, result, cpuMs: ((cpuSeconds(server.process.pid!) - cpuBefore) * 1000) / result.requests });
      }
      rounds.push(results);
    }
    return { label, rounds, load: loadAverage() };
  } finally {
    await server.stop();
  }
}

async function main() {
  const runs = [await measure("SQLite", undefined)];
  if (process.env.BENCH_POSTGRES_URL) {
    const scratch = await createScratchDatabase(process.env.BENCH_POSTGRES_URL, "cis_bench_api");
    try {
      runs.push(await measure("PostgreSQL", scratch.url));
    } finally {
      await scratch.drop();
    }
  } else {
    console.log(
      "(set BENCH_POSTGRES_URL=postgresql://user@host:port/postgres, a server the bench may create a scratch database on, to measure PostgreSQL too)",
    );
  }
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s each after 2 s of warm-up, node ${process.version}, app ${process.env.BENCH_APP_DIR ?? "."}\n`,
  );
  for (const run of runs) {
    run.rounds.forEach((results, round) => {
      const ceiling = results[0]!.result.rps;
      const ceilingCpu = results[0]!.cpuMs;
      console.log(`${run.label}${ROUNDS > 1 ? `, round ${round + 1}` : ""} (${run.load} at the end)`);
      console.log(
        "| route | req/s | p50 ms | p99 ms | errors | ratio to ceiling | server CPU ms per answer | CPU ratio (ceiling's / route's) |",
      );
      console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (const { target, result: r, cpuMs } of results) {
        console.log(
          `| ${target.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${(r.rps / ceiling).toFixed(2)} | ${cpuMs.toFixed(2)} | ${(ceilingCpu / cpuMs).toFixed(2)} |`,
        );
      }
      console.log("");
    });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
