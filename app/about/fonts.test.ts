// Every font the service ships is credited: a new @fontsource dependency without its line in
// THIRD_PARTY_NOTICES.md and on /about fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FONTS } from "./fonts";

const root = path.resolve(__dirname, "../..");
const dependencies = Object.keys(
  (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies,
);
const fontPackages = dependencies.filter((name) => name.startsWith("@fontsource/"));
const familyOf = (pkg: string) =>
  (JSON.parse(readFileSync(path.join(root, "node_modules", pkg, "metadata.json"), "utf8")) as { family: string }).family;

describe("font attributions", () => {
  it("THIRD_PARTY_NOTICES.md has a row for every @fontsource package", () => {
    const notices = readFileSync(path.join(root, "THIRD_PARTY_NOTICES.md"), "utf8");
    expect(fontPackages.length).toBeGreaterThanOrEqual(12);
    for (const pkg of fontPackages) expect(notices, pkg).toContain(`| \`${pkg}\` | ${familyOf(pkg)} |`);
  });

  it("/about credits every family (the Noto fallbacks by script, in one line)", () => {
    const credited = FONTS.map(([name]) => name).join("; ");
    for (const pkg of fontPackages) {
      const family = familyOf(pkg);
      const named = family.startsWith("Noto Sans ") ? family.replace(/^Noto Sans /, "") : family;
      expect(credited, family).toContain(named);
    }
  });
});
