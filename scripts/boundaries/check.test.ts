import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkBoundaries } from "./check";

const repository = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("../../test/fixtures/folder-cycle", import.meta.url));

describe("the boundary check", () => {
  it("fails on two folders that import each other through different files, which no module cycle shows", () => {
    const { ok, problems } = checkBoundaries({ cwd: fixture, config: ".dependency-cruiser.cjs", layers: "layers.cjs", roots: ["lib"] });
    expect(ok).toBe(false);
    expect(problems.filter((p) => p.startsWith("no-import-cycles"))).toEqual([]);
    const loop = problems.find((p) => p.startsWith("no-folder-cycles"));
    expect(loop).toContain("lib/a/, lib/b/");
    expect(loop).toContain("lib/a/ -> lib/b/, e.g. lib/a/one.ts -> lib/b/two.ts");
    expect(loop).toContain("lib/b/ -> lib/a/, e.g. lib/b/two.ts -> lib/a/three.ts");
  });

  it("names a folder that no layer lists", () => {
    const { problems } = checkBoundaries({ cwd: fixture, config: ".dependency-cruiser.cjs", layers: "layers.cjs", roots: ["lib"] });
    expect(problems.filter((p) => p.startsWith("folder-not-in-a-layer"))).toEqual([expect.stringContaining("lib/c/ is in no layer")]);
  });

  it("passes on this repository", () => {
    const { ok, problems } = checkBoundaries({ cwd: repository, roots: ["lib", "app", "server.ts"] });
    expect(problems).toEqual([]);
    expect(ok).toBe(true);
  });
});
