// `npm start`: build the app if the build is missing or older than the sources, apply migrations,
// seed the demo organization on an empty database, then serve. `npm run dev` serves in dev mode.
// Everything the process writes is a JSON line (lib/log.ts; lib/process-log.ts routes Next's and
// Prisma's own output there too).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config, ConfigError } from "@/lib/config";
import { applyMigrations } from "@/lib/db/migrate";
import { db } from "@/lib/db";
import { errorSummary, log } from "@/lib/log";
import { routeProcessOutputToLog } from "@/lib/process-log";
import { seedDemo } from "@/prisma/seed";
import { startServer } from "@/server";
import { buildIsStale } from "./build-freshness";

const dev = process.argv.includes("--dev");

/** `next build` prints pages of progress for people: it goes to a file, and the log says where. */
function ensureBuild(dataDir: string) {
  if (!buildIsStale()) return;
  const logFile = path.resolve(dataDir, "build.log");
  log.info("build_started", { reason: "the build is missing or older than the sources", logFile });
  const started = performance.now();
  const result = spawnSync("npx", ["next", "build"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(logFile, `${result.stdout ?? ""}${result.stderr ?? ""}`);
  if (result.status !== 0) {
    log.error("build_failed", { exitCode: result.status, logFile });
    process.exit(1);
  }
  log.info("build_finished", { seconds: Math.round((performance.now() - started) / 100) / 10 });
}

/** What main() was doing: a start that fails says where (its error's message is not logged). */
let stage = "configuration";

async function main() {
  routeProcessOutputToLog();
  const cfg = config();
  // BUILD_ON_START=0: serve the existing build as is (test harnesses that build once up front).
  stage = "build";
  if (!dev && process.env.BUILD_ON_START !== "0") ensureBuild(cfg.dataDir);
  stage = "migrations";
  const applied = await applyMigrations(cfg.databaseUrl);
  if (applied.length) log.info("migrations_applied", { migrations: applied });
  stage = "seed";
  const demoToken = await seedDemo();
  await db().$disconnect();

  stage = "listen";
  const stop = await startServer({ dev, host: cfg.host, port: cfg.port });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      // Stop accepting connections and let requests in flight finish, but never hang on shutdown.
      setTimeout(() => process.exit(0), 5000).unref();
      void stop().finally(() => process.exit(0));
    });
  }
  log.announce("server_ready", {
    url: cfg.publicUrl,
    database: cfg.databaseProvider === "sqlite" ? cfg.databaseUrl : "PostgreSQL",
    dashboard: `${cfg.publicUrl}/signup`,
    apiReference: `${cfg.publicUrl}/docs`,
  });
  if (demoToken) {
    // The one line that carries a secret, on purpose: the demo organization's token is shown once, on
    // the first start of an empty database, like `npm run cli -- token create` shows a new one.
    log.announce("demo_organization_created", {
      organization: "demo",
      apiToken: demoToken,
      note: "Shown once; store it now. Another: npm run cli -- token create demo",
      try: `curl ${cfg.publicUrl}/v1/groups -H "Authorization: Bearer $TOKEN" -H "Service-Version: 2022-10-26"`,
    });
  }
}

main().catch((error: unknown) => {
  // A configuration error names the variables and what is wrong with them (never their values);
  // anything else may quote a database's message, so only its kind is logged.
  log.error("start_failed", { stage, ...errorSummary(error), ...(error instanceof ConfigError ? { problems: error.problems } : {}) });
  process.exit(1);
});
