// `npm start`: build the app if the build is missing or older than the sources, apply migrations,
// seed the demo organization on an empty database, then serve. `npm run dev` serves in dev mode.
import { spawnSync } from "node:child_process";
import { config } from "@/lib/config";
import { applyMigrations } from "@/lib/db/migrate";
import { db } from "@/lib/db";
import { seedDemo } from "@/prisma/seed";
import { startServer } from "@/server";
import { buildIsStale } from "./build-freshness";

const dev = process.argv.includes("--dev");

function ensureBuild() {
  if (!buildIsStale()) return;
  console.log("Building the app (first start, or the sources changed)…");
  const result = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) {
    console.error("The build failed; see above.");
    process.exit(1);
  }
}

async function main() {
  const cfg = config();
  // BUILD_ON_START=0: serve the existing build as is (test harnesses that build once up front).
  if (!dev && process.env.BUILD_ON_START !== "0") ensureBuild();
  const applied = await applyMigrations(cfg.databaseUrl);
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(", ")}`);
  const demoToken = await seedDemo();
  await db().$disconnect();

  const stop = await startServer({ dev, host: cfg.host, port: cfg.port });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      // Stop accepting connections and let requests in flight finish, but never hang on shutdown.
      setTimeout(() => process.exit(0), 5000).unref();
      stop().finally(() => process.exit(0));
    });
  }
  const db_ = cfg.databaseProvider === "sqlite" ? cfg.databaseUrl : "PostgreSQL";
  console.log(`\nCredential issuing service ready at ${cfg.publicUrl}  (database: ${db_})`);
  console.log(`Dashboard: ${cfg.publicUrl}/signup (create an account) · API reference: ${cfg.publicUrl}/docs`);
  if (demoToken) {
    console.log(`\nDemo organization "demo" created. Its API token (shown once, store it now):\n\n  ${demoToken}\n`);
    console.log(`Try: curl ${cfg.publicUrl}/v1/groups -H "Authorization: Bearer ${demoToken}" -H "Service-Version: 2022-10-26"\n`);
  } else {
    console.log(`Need an API token? npm run cli -- token create demo\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
