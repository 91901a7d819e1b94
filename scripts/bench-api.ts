// npm run bench:api — requests/s and latency of /v1 reads on the built app (SQLite), 20 connections,
// next to a trivial route handler of the same app (/livez: the framework's ceiling).
import { runLoad, type LoadResult } from "./bench/load";
import { startBenchServer } from "./bench/app-server";

const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function main() {
  const server = await startBenchServer();
  try {
    const headers = { Authorization: `Bearer ${server.token}`, "Service-Version": "2022-10-26" };
    const groups = (await (await fetch(`${server.url}/v1/groups`, { headers })).json()) as { data: { id: string; designIds: string[] }[] };
    const group = groups.data[0]!;
    const targets: [string, string, Record<string, string>][] = [
      ["GET /livez (ceiling)", `${server.url}/livez`, {}],
      ["GET /v1/groups/{id}", `${server.url}/v1/groups/${group.id}`, headers],
      ["GET /v1/designs/{id}", `${server.url}/v1/designs/${group.designIds[0]}`, headers],
    ];
    const results: [string, LoadResult][] = [];
    for (const [name, url, h] of targets) {
      await runLoad({ url, headers: h, connections: CONNECTIONS, seconds: 2 }); // warm up
      results.push([name, await runLoad({ url, headers: h, connections: CONNECTIONS, seconds: SECONDS })]);
    }
    const ceiling = results[0]![1].rps;
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, SQLite, node ${process.version}\n`);
    console.log("| route | req/s | p50 ms | p99 ms | errors | ratio to ceiling |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const [name, r] of results) {
      console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${(r.rps / ceiling).toFixed(2)} |`);
    }
  } finally {
    server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
