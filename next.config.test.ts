import { afterEach, describe, expect, it, vi } from "vitest";

/** next.config.mjs as a process started with `env` would read it (it reads the environment once, at import). */
async function configWith(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await import("./next.config.mjs")).default;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("next.config.mjs: loading every page's code at start", () => {
  it("is on by default: a web process's first visits are quick", async () => {
    const config = await configWith({ CIS_BACKGROUND: undefined, CIS_PRELOAD_PAGES: undefined });
    expect(config.experimental?.preloadEntriesOnStart).toBe(true);
  });

  it("is off in a worker-only process, which serves no pages", async () => {
    const config = await configWith({ CIS_BACKGROUND: "only", CIS_PRELOAD_PAGES: undefined });
    expect(config.experimental?.preloadEntriesOnStart).toBe(false);
  });

  it("is off with CIS_PRELOAD_PAGES=off, and stays on with any other value", async () => {
    expect((await configWith({ CIS_BACKGROUND: "off", CIS_PRELOAD_PAGES: "off" })).experimental?.preloadEntriesOnStart).toBe(false);
    expect((await configWith({ CIS_BACKGROUND: "off", CIS_PRELOAD_PAGES: "on" })).experimental?.preloadEntriesOnStart).toBe(true);
  });
});
