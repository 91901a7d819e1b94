import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("process layout variables", () => {
  it("run everything in one process by default", () => {
    expect(parseConfig({}).background).toBe("on");
  });

  it("take off, only and on for CIS_BACKGROUND", () => {
    expect(parseConfig({ CIS_BACKGROUND: "off" }).background).toBe("off");
    expect(parseConfig({ CIS_BACKGROUND: "only" }).background).toBe("only");
  });

  it("stop the start on a misspelt value, naming the variable", () => {
    expect(problemsOf({ CIS_BACKGROUND: "Only" })).toEqual([expect.stringMatching(/^CIS_BACKGROUND: /)]);
    // next.config.mjs reads this one itself and compares with "off": any other spelling would
    // silently leave the preload on.
    expect(problemsOf({ CIS_PRELOAD_PAGES: "false" })).toEqual([expect.stringMatching(/^CIS_PRELOAD_PAGES: /)]);
    expect(problemsOf({ CIS_PRELOAD_PAGES: "off" })).toEqual([]);
  });
});
