// End-to-end tests against the real app, started as the README says (`npm start`).
//   api-sqlite     e2e/api/**    SQLite server
//   api-postgres   e2e/api/**    PostgreSQL server (only when TEST_POSTGRES_URL is set)
//   browser        e2e/browser/** Chromium against the SQLite server
// The global setup builds once, starts the servers and pools organizations (e2e/support/global-setup.ts).
import { existsSync } from "node:fs";
import os from "node:os";
import { defineConfig, type PlaywrightTestOptions, type PlaywrightWorkerOptions, type Project } from "@playwright/test";
import type { Backend } from "./e2e/support/databases";

/** A system Chromium (CHROMIUM_PATH, then /usr/bin/chromium); undefined falls back to Playwright's own. */
function systemChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p));
}

const chromium = systemChromium();
const hasPostgres = Boolean(process.env.TEST_POSTGRES_URL?.trim());

type Options = { backend: Backend };
const projects: Project<PlaywrightTestOptions, PlaywrightWorkerOptions & Options>[] = [
  { name: "api-sqlite", testDir: "./e2e/api", use: { backend: "sqlite" } },
  ...(hasPostgres ? [{ name: "api-postgres", testDir: "./e2e/api", use: { backend: "postgres" as const } }] : []),
  {
    name: "browser",
    testDir: "./e2e/browser",
    // A page's answer waits on server actions that render previews and issue credentials for the
    // other workers too; on 2 shared cores that can pass 5 s without anything being wrong.
    expect: { timeout: 10_000 },
    use: {
      backend: "sqlite",
      browserName: "chromium",
      launchOptions: {
        executablePath: chromium,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      },
    },
  },
];

export default defineConfig<PlaywrightTestOptions, PlaywrightWorkerOptions & Options>({
  globalSetup: "./e2e/support/global-setup.ts",
  projects,
  fullyParallel: true,
  // Tests mostly wait on the servers: more workers than cores pays off (5 on 2 cores: 65 s, 3: 82 s).
  workers: Number(process.env.E2E_WORKERS ?? Math.min(6, os.cpus().length * 2 + 1)),
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results/playwright",
  use: { trace: "off" },
});
