// npm run bench:recipient-wallet — the recipient's wallet with 1,000 credentials: p50 and p95 of the
// first page of GET /api/wallet/me/credentials and of the /wallet page, against the built app
// (npm start) on a fresh database. The goal is 100 ms p95 for both.
//
// It issues 1,000 credentials to one email through the API (half in a second organization's groups
// would need a second token; one organization and two groups stand for the cross-organization query,
// which reads the same index), starts a wallet session for that email directly in the database (the
// emailed link is what the e2e specs test), warms up, then times BENCH_REQUESTS sequential requests of
// each kind.
//
//   npm run bench:recipient-wallet                         SQLite in a temporary directory
//   BENCH_DATABASE_URL=postgresql://... npm run bench:recipient-wallet    an empty PostgreSQL database
// Env: BENCH_CREDENTIALS (1000), BENCH_REQUESTS (200).
import { startBenchServer } from "./bench/app-server";

const CREDENTIALS = Number(process.env.BENCH_CREDENTIALS ?? 1000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const EMAIL = "bench.recipient@example.com";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function timed(label: string, request: () => Promise<Response>): Promise<{ label: string; p50: number; p95: number }> {
  for (let i = 0; i < 20; i++) await (await request()).arrayBuffer();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await request();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${label} answered ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { label, p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function main() {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const server = await startBenchServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26", "Content-Type": "application/json" };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const groups = ((await api("GET", "/v1/groups")) as { data: { id: string; designIds?: string[] }[] }).data;
    const designId = ((await api("POST", "/v1/designs", { name: "Bench badge", type: "badge" })) as { id: string }).id;
    const second = (await api("POST", "/v1/groups", { name: "Bench second group", designIds: [designId] })) as { id: string };
    const groupIds = [groups[0]!.id, second.id];
    const started = Date.now();
    let made = 0;
    // Drafts then issue: no emails, as for credentials issued over the years.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (made < CREDENTIALS) {
          const n = made++;
          const draft = (await api("POST", "/v1/credentials", {
            groupId: groupIds[n % 2],
            recipient: { name: `Bench Recipient`, email: n % 3 === 0 ? EMAIL.toUpperCase() : EMAIL },
          })) as { id: string };
          await api("POST", `/v1/credentials/${draft.id}/issue`);
        }
      }),
    );
    console.log(`issued ${CREDENTIALS} credentials to one email in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // A session for the email, as following an emailed link starts one.
    process.env.DATABASE_URL = databaseUrl ?? `file:${server.dataDir}/bench.db`;
    process.env.DATA_DIR = server.dataDir;
    const { startWalletSession } = await import("../lib/wallet/session");
    const { token } = await startWalletSession(EMAIL);
    const cookie = `cis.wallet-session=${token}`;

    const first = (await (await fetch(`${server.url}/api/wallet/me/credentials`, { headers: { Cookie: cookie } })).json()) as {
      data: unknown[];
    };
    if (first.data.length !== 20) throw new Error(`expected a first page of 20, got ${first.data.length}`);
    const results = [
      await timed("GET /api/wallet/me/credentials (first page of 20)", () =>
        fetch(`${server.url}/api/wallet/me/credentials`, { headers: { Cookie: cookie } }),
      ),
      await timed("GET /wallet (the page, first 20 cards)", () => fetch(`${server.url}/wallet`, { headers: { Cookie: cookie } })),
    ];
    const engine = databaseUrl?.startsWith("postgres") ? "PostgreSQL" : "SQLite";
    console.log(`\n${engine}, ${CREDENTIALS} credentials, ${REQUESTS} sequential requests each:`);
    for (const r of results) console.log(`  ${r.label}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
    const { db } = await import("../lib/db");
    await db().$disconnect();
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
