// npm run bench:issue — create-issue-send for 2,000 credentials at 20 concurrent connections against
// the built app, with mail going to a local SMTP sink. Prints credentials/s accepted by the API and the
// seconds until the last email was accepted by SMTP, on SQLite and (with BENCH_POSTGRES_URL, a
// database the bench may use) on PostgreSQL.
import { runLoad } from "./bench/load";
import { startBenchServer } from "./bench/app-server";
import { smtpSink } from "./bench/smtp-sink";

const TOTAL = Number(process.env.BENCH_CREDENTIALS ?? 2000);
const CONNECTIONS = 20;

async function run(label: string, databaseUrl: string | undefined) {
  const sink = await smtpSink();
  const server = await startBenchServer({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}?pool=true&maxConnections=5`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26" };
    const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string }[] };
    const groupId = groups.data[0]!.id;
    const started = performance.now();
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
    while (sink.received() < accepted && performance.now() - started < 600_000) await new Promise((r) => setTimeout(r, 50));
    const mailSeconds = (performance.now() - started) / 1000;
    return { label, accepted, errors: result.errors, rps: result.rps, p50: result.p50, p99: result.p99, mailSeconds, delivered: sink.received() };
  } finally {
    server.stop();
    await sink.close();
  }
}

async function main() {
  const rows = [await run("SQLite", undefined)];
  if (process.env.BENCH_POSTGRES_URL) rows.push(await run("PostgreSQL", process.env.BENCH_POSTGRES_URL));
  else console.log("(set BENCH_POSTGRES_URL=postgresql://... to an empty database to measure PostgreSQL too)");
  console.log(`\ncreate-issue-send, ${TOTAL} credentials, ${CONNECTIONS} connections, mail to a local SMTP sink\n`);
  console.log("| database | credentials/s accepted | p50 ms | p99 ms | errors | emails delivered | s until last email accepted |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.delivered}/${r.accepted} | ${r.mailSeconds.toFixed(1)} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
