// npm run bench:public — requests/s, p50/p95 and server CPU per answer of the public faces (the wallet
// page for a guest and for its signed-in recipient, credential.json, the status list credential, the
// DID document, the OpenID4VCI issuer metadata, a recipient's public profile, the issuer's profile page
// and did-configuration.json) on the built app, one process, 16 connections, next to a trivial route of
// the same app (/livez: the framework's ceiling) measured in the same run, so that the machine's load
// cancels out of the ratios. SQLite always; PostgreSQL too with BENCH_POSTGRES_URL (a server the bench
// may create a scratch database on).
//
// Every request says what a browser says it accepts (`Accept-Encoding: gzip, deflate, br, zstd`), so the
// figures include compressing the answer; the bytes column is one answer as sent. BENCH_ACCEPT_ENCODING
// sets another value ("" for none: the bodies as they are).
//
// Env: BENCH_SECONDS (10 per route, after 2 s of warm-up), BENCH_ONLY=<part of a route's name> (the
// ceiling and those routes: for a CPU profile of one route with BENCH_CPU_PROF=<dir>), BENCH_APP_DIR
// (another checkout with its build: before and after in one sitting).
import { execFileSync, execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { runLoad, type LoadResult } from "./bench/load";
import { startBenchServer, type BenchServer } from "./bench/app-server";
import { createScratchDatabase } from "../test/support/db/postgres-scratch";

const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Credentials issued before measuring, so the pages read a table that is not empty. */
const SEEDED = 20;
const EMAIL = "bench.public@example.com";
const HANDLE = "bench-public";
const DOMAIN = "bench-public.example";

type Target = { name: string; path: string; headers?: Record<string, string> };

/** What Chrome sends; what most visitors' browsers and HTTP clients accept. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br, zstd";

/** One answer's bytes as sent (not decoded) and its Content-Encoding. */
function wireBytes(url: string, headers: Record<string, string>): Promise<{ bytes: number; coding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => resolve({ bytes, coding: String(res.headers["content-encoding"] ?? "identity") }));
      })
      .on("error", reject);
  });
}

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

/** Issues credentials to one email, signs that email in to the wallet, publishes a profile and verifies a domain. */
async function seed(server: BenchServer, databaseUrl: string): Promise<Target[]> {
  const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26", "Content-Type": "application/json" };
  const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string }[] };
  let publicId = "";
  for (let i = 0; i < SEEDED; i++) {
    const created = await fetch(`${server.url}/v1/credentials/create-issue-send`, {
      method: "POST",
      headers,
      body: JSON.stringify({ groupId: groups.data[0]!.id, recipient: { name: `Bench Reader ${i}`, email: EMAIL } }),
    });
    if (created.status !== 201) throw new Error(`seeding answered ${created.status}: ${await created.text()}`);
    publicId = ((await created.json()) as { publicId: string }).publicId;
  }
  // A wallet session, a public profile and a verified domain, written as the services write them (the
  // emailed link and the domain check are what the e2e specs test), from a process of their own: this
  // one measures both engines, and the database client is one per process.
  const token = execFileSync(process.execPath, ["--import", "tsx", "scripts/bench/public-seed.ts", EMAIL, HANDLE, DOMAIN], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: server.dataDir, LOG_LEVEL: "warn" },
  })
    .toString()
    .trim()
    .split("\n")
    .pop()!;

  const document = (await (await fetch(`${server.url}/credentials/${publicId}/credential.json`)).json()) as {
    credentialStatus: { statusListCredential: string };
  };
  const statusPath = new URL(document.credentialStatus.statusListCredential).pathname;
  return [
    { name: "GET /livez (ceiling)", path: "/livez" },
    { name: "wallet page, guest", path: `/credentials/${publicId}` },
    { name: "wallet page, signed-in recipient", path: `/credentials/${publicId}`, headers: { Cookie: `cis.wallet-session=${token}` } },
    { name: "credential.json", path: `/credentials/${publicId}/credential.json` },
    { name: "status list credential", path: statusPath },
    { name: "DID document", path: "/organizations/demo/did.json" },
    { name: "OID4VCI issuer metadata", path: "/.well-known/openid-credential-issuer/organizations/demo" },
    { name: "public profile page", path: `/profiles/${HANDLE}` },
    { name: "issuer profile page", path: "/organizations/demo" },
    { name: "did-configuration.json", path: "/organizations/demo/did-configuration.json" },
  ];
}

async function measure(label: string, databaseUrl: string | undefined) {
  const server = await startBenchServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  try {
    const all = await seed(server, databaseUrl ?? `file:${server.dataDir}/bench.db`);
    const only = process.env.BENCH_ONLY;
    const targets = all.filter((t, i) => i === 0 || !only || t.name.includes(only));
    const results: { target: Target; result: LoadResult; cpuMs: number; sent: { bytes: number; coding: string } }[] = [];
    for (const target of targets) {
      const headers = { ...target.headers, ...(ACCEPT_ENCODING ? { "Accept-Encoding": ACCEPT_ENCODING } : {}) };
      const probe = await fetch(server.url + target.path, { headers });
      if (probe.status !== 200) throw new Error(`${target.name} answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
      const load = { url: server.url + target.path, headers, connections: CONNECTIONS };
      await runLoad({ ...load, seconds: 2 }); // warm up
      // The server's CPU time per answer: less sensitive than req/s to what else the machine runs.
      const cpuBefore = cpuSeconds(server.process.pid!);
      const result = await runLoad({ ...load, seconds: SECONDS });
      const cpuMs = ((cpuSeconds(server.process.pid!) - cpuBefore) * 1000) / result.requests;
      results.push({ target, result, cpuMs, sent: await wireBytes(server.url + target.path, headers) });
    }
    return { label, results, load: loadAverage() };
  } finally {
    await server.stop();
  }
}

function printRun(run: Awaited<ReturnType<typeof measure>>) {
  const ceiling = run.results[0]!.result.rps;
  const ceilingCpu = run.results[0]!.cpuMs;
  console.log(
    `\n${run.label}: ${CONNECTIONS} connections, ${SECONDS} s per route after 2 s of warm-up, one process, node ${process.version}, app ${process.env.BENCH_APP_DIR ?? "."}, Accept-Encoding ${JSON.stringify(ACCEPT_ENCODING)}, PUBLIC_FACES_CACHE=${process.env.PUBLIC_FACES_CACHE ?? "on"} (${run.load} at the end)`,
  );
  console.log(
    "| route | req/s | p50 ms | p95 ms | errors | ratio to ceiling | server CPU ms per answer | CPU ratio (ceiling's / route's) | bytes sent |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const { target, result: r, cpuMs, sent } of run.results) {
    console.log(
      `| ${target.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.errors} | ${(r.rps / ceiling).toFixed(2)} | ${cpuMs.toFixed(2)} | ${(ceilingCpu / cpuMs).toFixed(2)} | ${sent.bytes.toLocaleString("en")} ${sent.coding} |`,
    );
  }
}

async function main() {
  printRun(await measure("SQLite", undefined));
  if (process.env.BENCH_POSTGRES_URL) {
    const scratch = await createScratchDatabase(process.env.BENCH_POSTGRES_URL, "cis_bench_public");
    try {
      printRun(await measure("PostgreSQL", scratch.url));
    } finally {
      await scratch.drop();
    }
  } else {
    console.log("(set BENCH_POSTGRES_URL=postgresql://user@host:port/postgres to measure PostgreSQL too)");
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
