// npm run bench:webhooks — create-issue-send at full speed (BENCH_CREDENTIALS, default 2,000, at 20
// connections, mail to a local SMTP sink, after 2 s of warm-up whose email and events are let out
// first) twice on fresh servers: without a webhook endpoint, then with one subscribed to every event
// (three per credential: created, issued, sent) on a local receiver that verifies every signature with
// the standardwebhooks library once the measurement is over. Prints issuing throughput with and without the endpoint, the server's
// CPU per credential until its email and events are out, this process's own CPU (load, sink,
// receiver: the same cores), events delivered per second, and the delay from the change (the event's
// createdAt) to its arrival, p50/p95.
// BENCH_POSTGRES_URL=postgresql://... (an empty database per run is made from it) measures PostgreSQL too.
//
// A second table (slow receivers): two organizations change a group ten times a second each for 40 s;
// organization A has a healthy endpoint beside three that hang, drip a byte a second, or answer after
// 30 s, organization B a healthy endpoint. The healthy endpoints' delay p50/p95 is measured with and
// without the slow ones (goal: p95 with them at most twice p95 without). BENCH_WEBHOOKS_ROWS=issue or
// =slow runs one table only. BENCH_WORKER=process runs the background workers in a process of their
// own beside a web-only one (the README's production layout); server CPU then counts both.
import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { startBenchLayout, startBenchServer } from "./bench/app-server";
import { runLoad } from "./bench/load";
import { smtpSink } from "./bench/smtp-sink";

const TOTAL = Number(process.env.BENCH_CREDENTIALS ?? 2000);
const CONNECTIONS = 20;
const EVENTS_PER_CREDENTIAL = 3;
const WARM_UP_SECONDS = 2;

type Receiver = {
  url: string;
  arrivals: { id: string; createdAt: number; delayMs: number; at: number }[];
  /** Verifies every delivery received so far with standardwebhooks; returns how many failed. */
  verifyAll: () => number;
  setSecret: (s: string) => void;
  close: () => Promise<void>;
};

/**
 * The receiver answers 204 at once and verifies every signature after the measurement (`verifyAll`):
 * it runs on the server's two cores, and a receiver in production runs on the customer's machine, so
 * its verification (standardwebhooks' SHA-256 is JavaScript, about 12 µs an event) is not charged to
 * the throughput the server lost.
 */
async function receiver(): Promise<Receiver> {
  const arrivals: Receiver["arrivals"] = [];
  const received: { body: string; headers: Record<string, string> }[] = [];
  const seen = new Set<string>();
  let secret = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = req.headers as Record<string, string>;
      received.push({ body, headers });
      const id = headers["webhook-id"] ?? "";
      let createdAt = NaN;
      try {
        createdAt = Date.parse((JSON.parse(body) as { createdAt: string }).createdAt);
      } catch {
        // Counted as a bad delivery by verifyAll if its signature does not hold either.
      }
      if (!seen.has(id) && !Number.isNaN(createdAt)) {
        seen.add(id);
        arrivals.push({ id, createdAt, delayMs: at - createdAt, at });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    verifyAll: () => {
      const webhook = new Webhook(secret);
      let bad = 0;
      for (const { body, headers } of received) {
        // Signed with the library as of the delivery's own timestamp (`verify` would compare it with
        // now, and refuse a long run's first deliveries as too old), against every signature sent.
        const id = headers["webhook-id"] ?? "";
        const at = new Date(Number(headers["webhook-timestamp"]) * 1000);
        const expected = Number.isNaN(at.getTime()) ? "" : webhook.sign(id, at, body);
        if (expected === "" || !(headers["webhook-signature"] ?? "").split(" ").includes(expected)) bad++;
      }
      return bad;
    },
    setSecret: (s) => (secret = s),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Waits until `done()`, at most 10 minutes; says so when it gives up (the row is then short of what it waited for). */
async function waitFor(done: () => boolean, what: string): Promise<void> {
  const from = Date.now();
  while (!done()) {
    if (Date.now() - from > 600_000) {
      console.warn(`  gave up waiting for ${what} after 600 s`);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function cpuMsOf(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type Row = {
  label: string;
  /** The server's CPU per credential, from the start of the load until its email and its events have all arrived. */
  cpuMs: number;
  /**
   * This process's CPU per credential over the same span: the load generator, the SMTP sink and the
   * receiver (which verifies the signatures only afterwards). It runs on the same cores as the server,
   * so the receiver's share of the throughput lost belongs to the machine, not to the server.
   */
  benchCpuMs: number;
  rps: number;
  p50: number;
  accepted: number;
  errors: number;
  delivered?: number;
  eventsPerSecond?: number;
  delayP50?: number;
  delayP95?: number;
  drainSeconds?: number;
  badSignatures?: number;
};

async function run(label: string, databaseUrl: string | undefined, withEndpoint: boolean): Promise<Row> {
  const sink = await smtpSink();
  const hooks = await receiver();
  const env = {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}?pool=true&maxConnections=5`,
    WEBHOOK_ALLOW_PRIVATE: "1",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const { server, separateWorker, cpuSeconds: serverCpu, stop } = await startBenchLayout(env);
  const name = separateWorker ? `${label} (worker process)` : label;
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26", "Content-Type": "application/json" };
    const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string }[] };
    const groupId = groups.data[0]!.id;
    if (withEndpoint) {
      const res = await fetch(`${server.url}/v1/webhooks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: hooks.url, events: ["*"] }),
      });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${await res.text()}`);
      hooks.setSecret(((await res.json()) as { secret: string }).secret);
    }
    const load = {
      url: `${server.url}/v1/credentials/create-issue-send`,
      method: "POST",
      headers,
      connections: CONNECTIONS,
      expectStatus: 201,
      body: (i: number) => JSON.stringify({ groupId, recipient: { name: `Bench Recipient ${i}`, email: `bench.${i}@example.com` } }),
    };
    const warmUpLoad = {
      ...load,
      body: (i: number) => JSON.stringify({ groupId, recipient: { name: `Warm-up ${i}`, email: `warm.${i}@example.com` } }),
    };
    // Warm up as bench:api and bench:public do (a fresh process is still compiling, and Next loads its
    // pages in the first seconds), then let the warm-up's email and events go out: measured is the
    // steady state, and neither run carries the warm-up's backlog.
    const warmUp = await runLoad({ ...warmUpLoad, seconds: WARM_UP_SECONDS });
    const warmUpCredentials = warmUp.requests - warmUp.errors;
    await waitFor(
      () => sink.received() >= warmUpCredentials && (!withEndpoint || hooks.arrivals.length >= warmUpCredentials * EVENTS_PER_CREDENTIAL),
      "the warm-up's email and events",
    );
    const mailBefore = sink.received();
    const cpuBefore = serverCpu();
    const benchCpuBefore = process.cpuUsage();
    const started = Date.now();
    const result = await runLoad({ ...load, seconds: 600, maxRequests: TOTAL });
    const accepted = result.requests - result.errors;
    // Only the measured credentials' events (a late one of the warm-up's was made before `started`).
    const measured = () => hooks.arrivals.filter((a) => a.createdAt >= started);
    const expected = accepted * EVENTS_PER_CREDENTIAL;
    // CPU per credential counts everything a credential costs, its email and events included, in both runs.
    await waitFor(
      () => sink.received() >= mailBefore + accepted && (!withEndpoint || measured().length >= expected),
      "the email and events",
    );
    const row: Row = {
      label: `${name}, ${withEndpoint ? "with" : "without"} an endpoint`,
      rps: result.rps,
      p50: result.p50,
      accepted,
      errors: result.errors,
      cpuMs: ((serverCpu() - cpuBefore) * 1000) / accepted,
      benchCpuMs: cpuMsOf(process.cpuUsage(benchCpuBefore)) / accepted,
    };
    if (!withEndpoint) return row;
    const arrivals = measured();
    const loadEnded = started + result.seconds * 1000;
    const duringLoad = arrivals.filter((a) => a.at <= loadEnded).length;
    const delays = arrivals.map((a) => a.delayMs).sort((a, b) => a - b);
    return {
      ...row,
      delivered: arrivals.length,
      eventsPerSecond: duringLoad / result.seconds,
      delayP50: percentile(delays, 50),
      delayP95: percentile(delays, 95),
      drainSeconds: (Math.max(...arrivals.map((a) => a.at)) - loadEnded) / 1000,
      badSignatures: hooks.verifyAll(),
    };
  } finally {
    await stop();
    await sink.close();
    await hooks.close();
  }
}

/** Which healthy receiver an arrival came to, and the three kinds of slow receiver. */
type SlowReceivers = {
  url: string;
  arrivals: Map<string, { delayMs: number }[]>;
  expectSecret: (path: string, secret: string) => void;
  bad: () => number;
  close: () => Promise<void>;
};

async function slowReceivers(): Promise<SlowReceivers> {
  const arrivals = new Map<string, { delayMs: number }[]>();
  const secrets = new Map<string, Webhook>();
  const seen = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let bad = 0;
  const server = http.createServer((req, res) => {
    const path = req.url ?? "";
    if (path === "/hang") return; // never answers
    if (path === "/drip") {
      // An answer that starts at once and never ends: a byte a second.
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 1000);
      timers.add(timer);
      res.on("close", () => (clearInterval(timer), timers.delete(timer)));
      return;
    }
    if (path === "/slow") {
      const timer = setTimeout(() => (timers.delete(timer), res.writeHead(204).end()), 30_000);
      timers.add(timer);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const event = secrets.get(path)!.verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>) as {
          id: string;
          createdAt: string;
        };
        if (!seen.has(`${path} ${event.id}`)) {
          seen.add(`${path} ${event.id}`);
          arrivals.get(path)!.push({ delayMs: Date.now() - Date.parse(event.createdAt) });
        }
        res.writeHead(204).end();
      } catch {
        bad++;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    expectSecret: (path, secret) => (secrets.set(path, new Webhook(secret)), arrivals.set(path, [])),
    bad: () => bad,
    close: () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

const SLOW_ROW_SECONDS = Number(process.env.BENCH_SLOW_SECONDS ?? 40);
const SLOW_ROW_CHANGES_PER_SECOND = 10;
const SLOW_ROW_MAX_PENDING = 4;

type SlowRow = { label: string; changes: number; perEndpoint: { name: string; delivered: number; p50: number; p95: number }[] };

/** A second organization with its own token and a group to change, made with the operator CLI. */
function secondOrganization(databaseUrl: string, dataDir: string): string {
  const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env, encoding: "utf8" });
  cli("org", "create", "bench-second");
  return cli("token", "create", "bench-second").trim().split("\n").pop()!;
}

async function runSlowReceivers(label: string, databaseUrl: string | undefined, withSlow: boolean): Promise<SlowRow> {
  const hooks = await slowReceivers();
  const server = await startBenchServer({ WEBHOOK_ALLOW_PRIVATE: "1", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const orgs: { token: string; paths: string[] }[] = [
      { token: server.token, paths: ["/healthy-a", ...(withSlow ? ["/hang", "/drip", "/slow"] : [])] },
      { token: secondOrganization(databaseUrl ?? `file:${server.dataDir}/bench.db`, server.dataDir), paths: ["/healthy-b"] },
    ];
    const groups: { headers: Record<string, string>; groupId: string }[] = [];
    for (const org of orgs) {
      const headers = { Authorization: `Bearer ${org.token}`, "Service-Version": "2022-10-26", "Content-Type": "application/json" };
      const designs = (await (await fetch(`${server.url}/v1/designs`, { headers })).json()) as { data: { id: string }[] };
      const group = await fetch(`${server.url}/v1/groups`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Bench group", designIds: [designs.data[0]!.id] }),
      });
      if (group.status !== 201) throw new Error(`POST /v1/groups answered ${group.status}: ${await group.text()}`);
      groups.push({ headers, groupId: ((await group.json()) as { id: string }).id });
      for (const path of org.paths) {
        const res = await fetch(`${server.url}/v1/webhooks`, {
          method: "POST",
          headers,
          body: JSON.stringify({ url: `${hooks.url}${path}`, events: ["group.updated"] }),
        });
        if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${await res.text()}`);
        if (path.startsWith("/healthy")) hooks.expectSecret(path, ((await res.json()) as { secret: string }).secret);
      }
    }
    // Each organization changes its group at a steady pace: one event per change for each endpoint. A
    // change is skipped while a few of its organization's are still under way (a slow server is not
    // buried under requests: the delivery delay is what is measured here).
    let changes = 0;
    const requests: Promise<unknown>[] = [];
    const pending = groups.map(() => 0);
    const changesOf = groups.map(() => 0);
    const started = Date.now();
    for (let tick = 0; Date.now() - started < SLOW_ROW_SECONDS * 1000; tick++) {
      for (const [i, g] of groups.entries()) {
        if (pending[i]! >= SLOW_ROW_MAX_PENDING) continue;
        pending[i]!++;
        requests.push(
          fetch(`${server.url}/v1/groups/${g.groupId}`, {
            method: "PATCH",
            headers: g.headers,
            body: JSON.stringify({ name: `Bench group ${tick}` }),
          })
            .then((r) => r.ok && (changes++, changesOf[i]!++))
            .finally(() => pending[i]!--),
        );
      }
      await new Promise((r) => setTimeout(r, Math.max(0, started + ((tick + 1) * 1000) / SLOW_ROW_CHANGES_PER_SECOND - Date.now())));
    }
    await Promise.all(requests);
    const healthy = ["/healthy-a", "/healthy-b"];
    const expected = (path: string) => changesOf[healthy.indexOf(path)]!;
    const waitUntil = Date.now() + 120_000;
    while (healthy.some((p) => hooks.arrivals.get(p)!.length < expected(p)) && Date.now() < waitUntil)
      await new Promise((r) => setTimeout(r, 100));
    if (hooks.bad() > 0) console.log(`  ${hooks.bad()} deliveries failed signature verification`);
    return {
      label: `${label}, ${withSlow ? "with" : "without"} the slow endpoints`,
      changes,
      perEndpoint: healthy.map((name) => {
        const delays = hooks.arrivals
          .get(name)!
          .map((a) => a.delayMs)
          .sort((a, b) => a - b);
        return {
          name: `${name.slice(1)} (${delays.length}/${expected(name)})`,
          delivered: delays.length,
          p50: percentile(delays, 50),
          p95: percentile(delays, 95),
        };
      }),
    };
  } finally {
    await server.stop();
    await hooks.close();
  }
}

async function slowReceiverRows() {
  const rows: SlowRow[] = [];
  for (const withSlow of [false, true]) rows.push(await runSlowReceivers("SQLite", undefined, withSlow));
  if (process.env.BENCH_POSTGRES_URL) {
    const { createScratchDatabase } = await import("../test/support/db/postgres-scratch");
    for (const withSlow of [false, true]) {
      const db = await createScratchDatabase(process.env.BENCH_POSTGRES_URL, "cis_bench_webhooks");
      try {
        rows.push(await runSlowReceivers("PostgreSQL", db.url, withSlow));
      } finally {
        await db.drop();
      }
    }
  }
  console.log(
    `\nslow receivers: two organizations change a group ${SLOW_ROW_CHANGES_PER_SECOND} times a second each for ${SLOW_ROW_SECONDS} s; A has a healthy endpoint (and, "with", three that hang, drip a byte a second, answer after 30 s), B a healthy one\n`,
  );
  console.log("| run | healthy endpoint (delivered/expected) | delay p50 ms | delay p95 ms |");
  console.log("|---|---|---:|---:|");
  for (const r of rows)
    for (const e of r.perEndpoint) console.log(`| ${r.label} | ${e.name} | ${e.p50.toFixed(0)} | ${e.p95.toFixed(0)} |`);
  for (let i = 0; i + 1 < rows.length; i += 2) {
    for (const [j, e] of rows[i + 1]!.perEndpoint.entries()) {
      const ratio = e.p95 / rows[i]!.perEndpoint[j]!.p95;
      console.log(
        `${rows[i]!.label.split(",")[0]}: ${e.name.split(" ")[0]} p95 with the slow endpoints is ${ratio.toFixed(2)}x its p95 without (goal: at most 2x)${ratio <= 2 ? "" : ": NOT MET"}`,
      );
    }
  }
}

async function main() {
  const only = process.env.BENCH_WEBHOOKS_ROWS;
  if (only !== "issue") await slowReceiverRows();
  if (only !== "slow") await issueRows();
}

async function issueRows() {
  const rows: Row[] = [];
  rows.push(await run("SQLite", undefined, false));
  rows.push(await run("SQLite", undefined, true));
  if (process.env.BENCH_POSTGRES_URL) {
    const { createScratchDatabase } = await import("../test/support/db/postgres-scratch");
    for (const withEndpoint of [false, true]) {
      const db = await createScratchDatabase(process.env.BENCH_POSTGRES_URL, "cis_bench_webhooks");
      try {
        rows.push(await run("PostgreSQL", db.url, withEndpoint));
      } finally {
        await db.drop();
      }
    }
  } else console.log("(set BENCH_POSTGRES_URL=postgresql://... to measure PostgreSQL too)");
  console.log(
    `\ncreate-issue-send, ${TOTAL} credentials, ${CONNECTIONS} connections; webhook endpoint subscribed to "*" (3 events per credential) on a local receiver\n`,
  );
  console.log(
    "| run | credentials/s | p50 ms | errors | server CPU ms per credential | bench process CPU ms per credential | events delivered | events/s delivered during the load | delay p50 ms | delay p95 ms | s after the load until the last |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const hooks =
      r.delivered === undefined
        ? "| – | – | – | – | – |"
        : `| ${r.delivered}/${r.accepted * EVENTS_PER_CREDENTIAL} | ${r.eventsPerSecond!.toFixed(0)} | ${r.delayP50!.toFixed(0)} | ${r.delayP95!.toFixed(0)} | ${r.drainSeconds!.toFixed(1)} |`;
    console.log(
      `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.errors} | ${r.cpuMs.toFixed(1)} | ${r.benchCpuMs.toFixed(1)} ${hooks}`,
    );
    if (r.badSignatures) console.log(`  ${r.badSignatures} deliveries failed signature verification`);
  }
  for (let i = 0; i + 1 < rows.length; i += 2) {
    const drop = 1 - rows[i + 1]!.rps / rows[i]!.rps;
    console.log(
      `${rows[i]!.label.split(",")[0]}: issuing throughput with the endpoint is ${(drop * 100).toFixed(1)}% ${drop >= 0 ? "lower" : "higher"} than without`,
    );
    // Less sensitive to the machine's load than credentials/s: what delivering 3 events adds per credential.
    const extra = rows[i + 1]!.cpuMs / rows[i]!.cpuMs - 1;
    console.log(`  server CPU per credential with the endpoint: ${(extra * 100).toFixed(1)}% ${extra >= 0 ? "more" : "less"}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
