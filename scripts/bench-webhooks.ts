// npm run bench:webhooks — create-issue-send at full speed (2,000 credentials, 20 connections, mail to a
// local SMTP sink) twice on fresh servers: without a webhook endpoint, then with one subscribed to every
// event (three per credential: created, issued, sent) on a local receiver that verifies every signature
// with the standardwebhooks library. Prints issuing throughput with and without the endpoint, events
// delivered per second, and the delay from the change (the event's createdAt) to its arrival, p50/p95.
// BENCH_POSTGRES_URL=postgresql://... (an empty database per run is made from it) measures PostgreSQL too.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { startBenchServer } from "./bench/app-server";
import { runLoad } from "./bench/load";
import { smtpSink } from "./bench/smtp-sink";

const TOTAL = Number(process.env.BENCH_CREDENTIALS ?? 2000);
const CONNECTIONS = 20;
const EVENTS_PER_CREDENTIAL = 3;

type Receiver = { url: string; arrivals: { id: string; delayMs: number; at: number }[]; bad: () => number; setSecret: (s: string) => void; close: () => Promise<void> };

async function receiver(): Promise<Receiver> {
  const arrivals: Receiver["arrivals"] = [];
  const seen = new Set<string>();
  let webhook: Webhook | undefined;
  let bad = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      try {
        const event = webhook!.verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>) as { id: string; createdAt: string };
        if (!seen.has(event.id)) {
          seen.add(event.id);
          arrivals.push({ id: event.id, delayMs: at - Date.parse(event.createdAt), at });
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
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    bad: () => bad,
    setSecret: (s) => (webhook = new Webhook(s)),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type Row = { label: string; rps: number; p50: number; accepted: number; errors: number; delivered?: number; eventsPerSecond?: number; delayP50?: number; delayP95?: number; drainSeconds?: number; badSignatures?: number };

async function run(label: string, databaseUrl: string | undefined, withEndpoint: boolean): Promise<Row> {
  const sink = await smtpSink();
  const hooks = await receiver();
  const server = await startBenchServer({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}?pool=true&maxConnections=5`,
    WEBHOOK_ALLOW_PRIVATE: "1",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26", "Content-Type": "application/json" };
    const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string }[] };
    const groupId = groups.data[0]!.id;
    if (withEndpoint) {
      const res = await fetch(`${server.url}/v1/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: hooks.url, events: ["*"] }) });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${await res.text()}`);
      hooks.setSecret(((await res.json()) as { secret: string }).secret);
    }
    const started = Date.now();
    const result = await runLoad({
      url: `${server.url}/v1/credentials/create-issue-send`,
      method: "POST",
      headers,
      connections: CONNECTIONS,
      seconds: 600,
      maxRequests: TOTAL,
      expectStatus: 201,
      body: (i) => JSON.stringify({ groupId, recipient: { name: `Bench Recipient ${i}`, email: `bench.${i}@example.com` } }),
    });
    const accepted = result.requests - result.errors;
    const row: Row = { label: `${label}, ${withEndpoint ? "with" : "without"} an endpoint`, rps: result.rps, p50: result.p50, accepted, errors: result.errors };
    if (!withEndpoint) return row;
    const expected = accepted * EVENTS_PER_CREDENTIAL;
    while (hooks.arrivals.length < expected && Date.now() - started < 600_000) await new Promise((r) => setTimeout(r, 50));
    const loadEnded = started + result.seconds * 1000;
    const duringLoad = hooks.arrivals.filter((a) => a.at <= loadEnded).length;
    const delays = hooks.arrivals.map((a) => a.delayMs).sort((a, b) => a - b);
    return {
      ...row,
      delivered: hooks.arrivals.length,
      eventsPerSecond: duringLoad / result.seconds,
      delayP50: percentile(delays, 50),
      delayP95: percentile(delays, 95),
      drainSeconds: (Math.max(...hooks.arrivals.map((a) => a.at)) - loadEnded) / 1000,
      badSignatures: hooks.bad(),
    };
  } finally {
    await server.stop();
    await sink.close();
    await hooks.close();
  }
}

async function main() {
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
  console.log(`\ncreate-issue-send, ${TOTAL} credentials, ${CONNECTIONS} connections; webhook endpoint subscribed to "*" (3 events per credential) on a local receiver\n`);
  console.log("| run | credentials/s | p50 ms | errors | events delivered | events/s delivered during the load | delay p50 ms | delay p95 ms | s after the load until the last |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const hooks = r.delivered === undefined ? "| – | – | – | – | – |" : `| ${r.delivered}/${r.accepted * EVENTS_PER_CREDENTIAL} | ${r.eventsPerSecond!.toFixed(0)} | ${r.delayP50!.toFixed(0)} | ${r.delayP95!.toFixed(0)} | ${r.drainSeconds!.toFixed(1)} |`;
    console.log(`| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.errors} ${hooks}`);
    if (r.badSignatures) console.log(`  ${r.badSignatures} deliveries failed signature verification`);
  }
  for (let i = 0; i + 1 < rows.length; i += 2) {
    const drop = 1 - rows[i + 1]!.rps / rows[i]!.rps;
    console.log(`${rows[i]!.label.split(",")[0]}: issuing throughput with the endpoint is ${(drop * 100).toFixed(1)}% ${drop >= 0 ? "lower" : "higher"} than without`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
