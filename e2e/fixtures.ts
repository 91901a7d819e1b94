// Test fixtures shared by every spec. The project decides the database (`backend` option); the global
// setup has already started one app server per backend (see support/global-setup.ts).
//
//   api            request context for a fresh organization (free plan): base URL, Bearer token,
//                  Service-Version and X-Forwarded-Proto: https (the servers run with TRUST_PROXY=1)
//   org            that organization: {slug, plan, token}
//   newOrg({plan}) another fresh organization {slug, plan, token}
//   client({...})  a request context with exactly the headers asked for (no token, other token, …); in the
//                  API projects every /v1 answer it receives is checked against the OpenAPI document
//                  (support/openapi-conformance.ts): an undocumented status or body fails the request
//   cli(args)      `scripts/cli.ts` against the project's database
//   startServer(env)  an extra `npm start` on the project's database with extra configuration
//   scratchDatabase()  an empty database of the project's kind (dropped after the test)
import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { createDatabase, dropDatabase, type Backend } from "./support/databases";
import { conformingContext, loadConformance, type OpenApiConformance } from "./support/openapi-conformance";
import { EXTRA_SERVER_ENV, startAppServer } from "./support/servers";
import {
  claimFromPool,
  createOrgs,
  readState,
  runTsx,
  type CommandResult,
  type E2EState,
  type Org,
  type ServerInfo,
} from "./support/state";
import path from "node:path";

export { expect };
export type { Org, CommandResult };

export const SERVICE_VERSION = "2022-10-26";

export type ClientOptions = {
  /** Bearer token; omit for none. */
  token?: string;
  /** Service-Version value; `null` leaves the header out. Default: the current version. */
  version?: string | null;
  /** Extra headers (override the defaults). */
  headers?: Record<string, string>;
  /** Default: the project's server. */
  baseURL?: string;
  /** Default true: X-Forwarded-Proto: https, as a TLS proxy in front would send. */
  https?: boolean;
};

export type ExtraServer = { baseURL: string; env: Record<string, string>; output: () => string; stop: () => Promise<void> };

type TestFixtures = {
  server: ServerInfo;
  org: Org;
  api: APIRequestContext;
  newOrg: (options?: { plan?: Org["plan"] }) => Promise<Org>;
  client: (options?: ClientOptions) => Promise<APIRequestContext>;
  cli: (args: string[], env?: Record<string, string>) => Promise<CommandResult>;
  startServer: (env?: Record<string, string>) => Promise<ExtraServer>;
  scratchDatabase: () => Promise<string>;
};

type WorkerFixtures = {
  backend: Backend;
  e2eState: E2EState;
  orgSupply: { take: (backend: Backend, plan: Org["plan"]) => Promise<Org> };
  /** The served OpenAPI document, compiled for checking answers; loaded on first use. */
  openApiConformance: () => Promise<OpenApiConformance>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  backend: ["sqlite", { option: true, scope: "worker" }],

  e2eState: [async ({}, use) => use(readState()), { scope: "worker" }],

  orgSupply: [
    async ({ e2eState }, use, workerInfo) => {
      // Extra organizations this worker made itself once the shared pool ran dry, by backend and plan.
      const spare = new Map<string, Org[]>();
      let batch = 0;
      await use({
        take: async (backend, plan) => {
          const fromPool = claimFromPool(e2eState, backend, plan, `w${workerInfo.workerIndex}`);
          if (fromPool) return fromPool;
          const key = `${backend}/${plan}`;
          if (!spare.get(key)?.length) {
            const prefix = `e2e-${e2eState.runId}-${backend.slice(0, 2)}w${workerInfo.workerIndex}b${batch++}`;
            spare.set(key, await createOrgs(e2eState.servers[backend]!, prefix, plan === "free" ? 20 : 0, plan === "premium" ? 10 : 0));
          }
          return spare.get(key)!.shift()!;
        },
      });
    },
    { scope: "worker" },
  ],

  openApiConformance: [
    async ({ backend, e2eState }, use) => {
      let loaded: Promise<OpenApiConformance> | undefined;
      await use(() => {
        const server = e2eState.servers[backend];
        if (!server) throw new Error(`no ${backend} server to read the OpenAPI document from`);
        loaded ??= loadConformance(server.baseURL);
        return loaded;
      });
    },
    { scope: "worker" },
  ],

  server: async ({ backend, e2eState }, use, testInfo) => {
    const server = e2eState.servers[backend];
    if (!server) {
      testInfo.skip(true, `no ${backend} server (TEST_POSTGRES_URL unset?)`);
      return;
    }
    await use(server);
  },

  baseURL: async ({ server }, use) => use(server.baseURL),

  newOrg: async ({ backend, orgSupply, server }, use) => {
    void server; // the server must exist before organizations are taken for it
    await use(async (options) => orgSupply.take(backend, options?.plan ?? "free"));
  },

  org: async ({ newOrg }, use) => use(await newOrg()),

  client: async ({ playwright, server, openApiConformance }, use, testInfo) => {
    // The API specs are the contract's tests: each answer they get is held to the document too.
    const checked = testInfo.project.name.startsWith("api-");
    const contexts: APIRequestContext[] = [];
    await use(async (options = {}) => {
      const headers: Record<string, string> = {};
      if (options.https !== false) headers["X-Forwarded-Proto"] = "https";
      if (options.version !== null) headers["Service-Version"] = options.version ?? SERVICE_VERSION;
      if (options.token !== undefined) headers["Authorization"] = `Bearer ${options.token}`;
      Object.assign(headers, options.headers ?? {});
      const ctx = await playwright.request.newContext({ baseURL: options.baseURL ?? server.baseURL, extraHTTPHeaders: headers });
      contexts.push(ctx);
      return checked ? conformingContext(ctx, openApiConformance) : ctx;
    });
    await Promise.all(contexts.map((c) => c.dispose()));
  },

  api: async ({ client, org }, use) => use(await client({ token: org.token })),

  cli: async ({ server }, use, testInfo) => {
    await use((args, env = {}) => {
      // A tsx start is ~1 s on an idle machine and 10–25 s on a loaded one (CI on 2 busy cores: a test
      // of 6 calls ran out of 20 s each): give each call its own time.
      testInfo.setTimeout(testInfo.timeout + 60_000);
      return runTsx("scripts/cli.ts", args, { DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, ...env });
    });
  },

  startServer: async ({ server, e2eState }, use, testInfo) => {
    const started: ExtraServer[] = [];
    let n = 0;
    await use(async (env = {}) => {
      testInfo.setTimeout(testInfo.timeout + 90_000); // a server start is ~2 s idle, much more under load
      const logFile = path.join(e2eState.runDir, `extra-${server.backend}-${testInfo.workerIndex}-${testInfo.testId}-${n++}.log`);
      const s = await startAppServer({ ...EXTRA_SERVER_ENV, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, ...env }, logFile);
      const extra = { baseURL: s.baseURL, env: s.env, output: s.output, stop: s.stop };
      started.push(extra);
      return extra;
    });
    await Promise.all(started.map((s) => s.stop()));
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [i, s] of started.entries())
        await testInfo.attach(`extra-server-${i}.log`, { body: s.output(), contentType: "text/plain" });
    }
  },

  scratchDatabase: async ({ backend, e2eState }, use) => {
    const created: string[] = [];
    await use(async () => {
      const url = await createDatabase(backend, path.join(e2eState.runDir, backend), `${e2eState.runId}_scratch`);
      created.push(url);
      return url;
    });
    // Servers started on it by startServer stop first (fixtures tear down in reverse order of setup).
    for (const url of created) await dropDatabase(url).catch(() => undefined);
  },
});
