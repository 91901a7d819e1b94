// npm run bench:issue — create-issue-send for 2,000 credentials at 20 concurrent connections against
// the built app, with mail going to a local SMTP sink. Prints credentials/s accepted by the API, the
// seconds until the last email was accepted by SMTP (from the start, and after the last answer), on
// SQLite and (with BENCH_POSTGRES_URL, a server the bench may create a scratch database on) PostgreSQL.
//
// BENCH_APP_DIR=<another checkout with its build> serves that checkout instead (compare two commits);
// BENCH_ENGINES=sqlite|postgresql limits the run to one engine; BENCH_WORKER=process runs the mail
// worker in a process of its own (CIS_BACKGROUND=only) beside a web-only one (CIS_BACKGROUND=off), the
// layout the README recommends for production: server CPU then counts both processes.
import { execSync } from "node:child_process";
import { runLoad } from "./bench/load";
import { startBenchLayout } from "./bench/app-server";
import { smtpSink } from "./bench/smtp-sink";
import { createScratchDatabase } from "../test/support/db/postgres-scratch";

const TOTAL = Number(process.env.BENCH_CREDENTIALS ?? 2000);
const CONNECTIONS = 20;

async function run(label: string, databaseUrl: string | undefined) {
  const sink = await smtpSink();
  const env = {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}?pool=true&maxConnections=5`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const { server, separateWorker, cpuSeconds: serverCpu, stop } = await startBenchLayout(env);
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26" };
    const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string }[] };
    const groupId = groups.data[0]!.id;
    const cpuBefore = serverCpu();
    const started = performance.now();
    let lastAnswer = started;
    const result = await runLoad({
      url: `${server.url}/v1/credentials/create-issue-send`,
      method: "POST",
      headers,
      connections: CONNECTIONS,
      seconds: 600,
      maxRequests: TOTAL,
      expectStatus: 201,
      body: (i) => JSON.stringify({ groupId, recipient: { name: `Bench Recipient ${i}`, email: `bench.${i}@example.com` } }),
      onResponse: () => (lastAnswer = performance.now()),
    });
    const accepted = result.requests - result.errors;
    while (sink.received() < accepted && performance.now() - started < 600_000) await new Promise((r) => setTimeout(r, 10));
    const lastMail = sink.lastReceivedAt() ?? performance.now();
    const mailSeconds = (lastMail - started) / 1000;
    // The server's CPU time per credential, issuing and mailing it: less sensitive to the machine's load than credentials/s.
    const cpuMs = ((serverCpu() - cpuBefore) * 1000) / accepted;
    const mailAfterAnswers = Math.max(0, lastMail - lastAnswer) / 1000;
    const load = execSync("uptime")
      .toString()
      .trim()
      .replace(/^.*load average: /, "");
    return {
      label: separateWorker ? `${label}, worker process` : label,
      accepted,
      errors: result.errors,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      mailSeconds,
      mailAfterAnswers,
      cpuMs,
      delivered: sink.received(),
      distinct: sink.distinct(),
      load,
    };
  } finally {
    await stop();
    await sink.close();
  }
}

async function runPostgres() {
  const scratch = await createScratchDatabase(process.env.BENCH_POSTGRES_URL!, "cis_bench_issue");
  try {
    return await run("PostgreSQL", scratch.url);
  } finally {
    await scratch.drop();
  }
}

async function main() {
  const engines = process.env.BENCH_ENGINES ?? "sqlite,postgresql";
  const rows = [];
  if (engines.includes("sqlite")) rows.push(await run("SQLite", undefined));
  if (engines.includes("postgresql")) {
    if (process.env.BENCH_POSTGRES_URL) rows.push(await runPostgres());
    else
      console.log(
        "(set BENCH_POSTGRES_URL=postgresql://user@host:port/postgres, a server the bench may create a scratch database on, to measure PostgreSQL too)",
      );
  }
  console.log(
    `\ncreate-issue-send, ${TOTAL} credentials, ${CONNECTIONS} connections, mail to a local SMTP sink, app ${process.env.BENCH_APP_DIR ?? "."}\n`,
  );
  console.log(
    "| database | credentials/s accepted | p50 ms | p99 ms | errors | emails delivered (distinct) | s from start to last email | s from last answer to last email | server CPU ms per credential | load average after |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.delivered} (${r.distinct})/${r.accepted} | ${r.mailSeconds.toFixed(1)} | ${r.mailAfterAnswers.toFixed(1)} | ${r.cpuMs.toFixed(1)} | ${r.load} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
