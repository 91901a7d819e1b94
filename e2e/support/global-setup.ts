// Global setup: build once, then for each database backend start one app server (`npm start`, own temp
// DATA_DIR and a fresh database) and pre-create a pool of organizations with tokens. Returns the
// teardown that stops the servers and drops the databases.
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { createDatabase, dropDatabase, postgresServerUrl, type Backend } from "./databases";
import { buildIfStale, ROOT, startAppServer, type RunningServer } from "./servers";
import { createOrgs, fillPool, type E2EState, type ServerInfo } from "./state";

const POOL_FREE = Number(process.env.E2E_POOL_FREE ?? 160);
const POOL_PREMIUM = Number(process.env.E2E_POOL_PREMIUM ?? 24);

export default async function globalSetup(_config: FullConfig) {
  const started = Date.now();
  const runId = randomBytes(3).toString("hex");
  const runDir = mkdtempSync(path.join(os.tmpdir(), `cis-e2e-${runId}-`));
  const state: E2EState = { runId, runDir, servers: {} };
  const running: RunningServer[] = [];
  const databases: string[] = [];

  const teardown = async () => {
    await Promise.all(running.map((s) => s.stop()));
    for (const url of databases) await dropDatabase(url).catch((e) => console.warn(`[e2e] could not drop ${url}: ${e}`));
    const logs = path.join(ROOT, "test-results", "server-logs");
    try {
      mkdirSync(logs, { recursive: true });
      for (const s of Object.values(state.servers)) cpSync(s.logFile, path.join(logs, path.basename(s.logFile)));
    } catch {
      /* logs are a convenience */
    }
    if (process.env.E2E_KEEP !== "1") rmSync(runDir, { recursive: true, force: true });
    else console.log(`[e2e] kept ${runDir}`);
  };

  try {
    buildIfStale();
    const backends: Backend[] = ["sqlite"];
    if (postgresServerUrl()) backends.push("postgres");
    else console.log("[e2e] TEST_POSTGRES_URL is not set: the api-postgres project is not configured");

    await Promise.all(
      backends.map(async (backend) => {
        const dataDir = path.join(runDir, backend, "data");
        mkdirSync(dataDir, { recursive: true });
        const databaseUrl = await createDatabase(backend, path.join(runDir, backend), `${runId}_main`);
        databases.push(databaseUrl);
        const logFile = path.join(runDir, `server-${backend}.log`);
        const server = await startAppServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, logFile);
        running.push(server);
        const info: ServerInfo = { backend, baseURL: server.baseURL, port: server.port, databaseUrl, dataDir, logFile, pid: server.pid };
        state.servers[backend] = info;
        const orgs = await createOrgs(info, `e2e-${runId}-${backend.slice(0, 2)}`, POOL_FREE, POOL_PREMIUM);
        fillPool(state, backend, orgs);
        console.log(`[e2e] ${backend}: ${server.baseURL} (${orgs.length} organizations pooled)`);
      }),
    );
  } catch (error) {
    await teardown();
    throw error;
  }

  const stateFile = path.join(runDir, "state.json");
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  process.env.E2E_STATE_FILE = stateFile;
  console.log(`[e2e] global setup took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return teardown;
}
