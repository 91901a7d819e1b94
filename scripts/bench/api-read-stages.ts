// npx tsx --tsconfig tsconfig.json scripts/bench/api-read-stages.ts — a /v1 read's own CPU, without the
// framework: calls the route handlers of GET /v1/groups/{id}, /v1/designs/{id} and /v1/credentials/{id}
// in this process, one request at a time, on a fresh SQLite database seeded like `npm start` seeds it,
// and prints µs per call for the whole handler and for its stages (token lookup, the read itself).
// What the HTTP benches (bench:api) cannot show under load: the server's share of a read, by stage.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const N = Number(process.env.BENCH_CALLS ?? 20_000);
const dir = mkdtempSync(path.join(tmpdir(), "cis-read-stages-"));
process.env.DATABASE_URL ??= `file:${dir}/db.sqlite`;
process.env.DATA_DIR = dir;
process.env.LOG_LEVEL = "warn";
process.env.RATE_LIMIT_PER_SECOND = "1000000";
process.env.RATE_LIMIT_BURST = "1000000";
process.env.ALLOW_HTTP = "1";

function time(label: string, calls: number, run: () => Promise<unknown>) {
  return async () => {
    for (let i = 0; i < 500; i++) await run(); // warm-up: prepared statements, zod's compiled parsers
    const started = process.cpuUsage();
    for (let i = 0; i < calls; i++) await run();
    const used = process.cpuUsage(started);
    console.log(`| ${label} | ${((used.user + used.system) / calls).toFixed(1)} |`);
  };
}

async function main() {
  const { applyMigrations } = await import("../../lib/db/migrate");
  await applyMigrations(process.env.DATABASE_URL!);
  const { seedDemo } = await import("../../prisma/seed");
  const token = (await seedDemo())!;
  const { authenticateApiToken } = await import("../../lib/organizations/service");
  const { getGroup, listGroups } = await import("../../lib/groups/service");
  const { getDesign } = await import("../../lib/designs/service");
  const { groupRoute } = await import("../../app/v1/groups/[id]/endpoints");
  const { designRoute } = await import("../../app/v1/designs/[id]/endpoints");
  const { credentialRoute } = await import("../../app/v1/credentials/[id]/endpoints");
  const { createIssueSendRoute } = await import("../../app/v1/credentials/create-issue-send/endpoints");
  const caller = (await authenticateApiToken(token))!;
  const orgId = caller.organization.id;
  const group = (await listGroups(orgId, { limit: 1 })).data[0]!;
  const headers = { Authorization: `Bearer ${token}`, "Service-Version": "2022-10-26", "x-cis-client-address": "127.0.0.1" };
  const created = await createIssueSendRoute.handlers.POST(
    new Request("http://localhost/v1/credentials/create-issue-send", {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ groupId: group.id, recipient: { name: "Stage Reader", email: "stage.reader@example.com" } }),
    }),
    { params: Promise.resolve({}) },
  );
  const credentialId = ((await created.json()) as { id: string }).id;
  for (let i = 0; i < 40; i++) {
    await createIssueSendRoute.handlers.POST(
      new Request("http://localhost/v1/credentials/create-issue-send", {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ groupId: group.id, recipient: { name: `Stage Reader ${i}`, email: `stage.reader.${i}@example.com` } }),
      }),
      { params: Promise.resolve({}) },
    );
  }
  const call = (route: typeof groupRoute, url: string, id: string) => () =>
    route.handlers.GET(new Request(url, { headers }), { params: Promise.resolve({ id }) }).then((r) => r.text());
  const designId = group.designIds[0]!;
  console.log(`${N} calls each, one at a time, CPU µs per call (user + system), node ${process.version}\n`);
  console.log("| stage | µs per call |\n|---|---:|");
  await time(
    "new Request + Headers (the framework makes one per request)",
    N,
    async () => new Request("http://localhost/v1/groups/x", { headers }),
  )();
  await time("token lookup (authenticateApiToken)", N, () => authenticateApiToken(token))();
  await time("getGroup (read + serialize)", N, () => getGroup(orgId, group.id))();
  await time("getDesign (read + serialize)", N, () => getDesign(caller.organization, designId))();
  const { apiTokenLimiter } = await import("../../lib/rate-limit/shared-rate-limit");
  const { idParams } = await import("../../lib/api/endpoint");
  const { log } = await import("../../lib/log");
  const { requestIdOf } = await import("../../lib/api/request-id");
  const sample = new Request(`http://localhost/v1/groups/${group.id}`, { headers });
  await time("rate limit take", N, async () => apiTokenLimiter().take(caller.tokenId))();
  await time("path parameters (idParams)", N, async () => idParams.safeParse({ id: group.id }))();
  await time("request id", N, async () => requestIdOf(sample))();
  await time("log line held back by LOG_LEVEL", N, async () => log.info("request", { path: new URL(sample.url).pathname, ms: 1 }))();
  await time("JSON answer (stringify + Response)", N, async () =>
    new Response(JSON.stringify(await getGroup(orgId, group.id)), { headers: { "Content-Type": "application/json" } }).text(),
  )();
  await time("GET /v1/groups/{id} handler, whole", N, call(groupRoute, `http://localhost/v1/groups/${group.id}`, group.id))();
  await time("GET /v1/designs/{id} handler, whole", N, call(designRoute, `http://localhost/v1/designs/${designId}`, designId))();
  const { searchRoute } = await import("../../app/v1/credentials/search/endpoints");
  // bench:api's typical search: issued credentials of one group, newest first, one page of 20.
  const search = JSON.stringify({
    filter: { AND: [{ status: "issued" }, { groupId: group.id }] },
    sort: { property: "createdAt", order: "desc" },
    limit: 20,
  });
  const searchHeaders = { ...headers, "Content-Type": "application/json" };
  await time("POST /v1/credentials/search (20 of 41), whole handler", Math.ceil(N / 10), () =>
    searchRoute.handlers
      .POST(new Request("http://localhost/v1/credentials/search", { method: "POST", headers: searchHeaders, body: search }), {
        params: Promise.resolve({}),
      })
      .then((r) => r.text()),
  )();
  await time(
    "GET /v1/credentials/{id} handler, whole",
    N,
    call(credentialRoute, `http://localhost/v1/credentials/${credentialId}`, credentialId),
  )();
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
