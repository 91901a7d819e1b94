import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { anchorsOf, brokenLinks, linksOf } from "./check-doc-links.mjs";

let root: string | undefined;

/** A scratch repository holding the given Markdown (and other) files. */
function fixture(files: Record<string, string>): string {
  root = mkdtempSync(path.join(tmpdir(), "doc-links-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const GUIDE = [
  "# Operating the service",
  "",
  "## Configuration",
  "",
  "## Running on PostgreSQL (`DATABASE_URL`)",
  "",
  "## Verifiable credentials (Open Badges 3.0)",
  "",
  "## Configuration",
  "",
  '<a id="custom-anchor"></a>',
  "",
  "Setext heading",
  "--------------",
].join("\n");

describe("the documentation link check", () => {
  it("passes when every relative link and anchor resolves", () => {
    const dir = fixture({
      "docs/guide.md": GUIDE,
      "lib/search/README.md": "# Search\n",
      "README.md": [
        "# See",
        "",
        "See [the guide](docs/guide.md), [its configuration](docs/guide.md#configuration), the second one",
        "(docs/guide.md#configuration-1 is [here](docs/guide.md#configuration-1)), [PostgreSQL](docs/guide.md#running-on-postgresql-database_url),",
        "[credentials](docs/guide.md#verifiable-credentials-open-badges-30), [custom](docs/guide.md#custom-anchor),",
        "[setext](docs/guide.md#setext-heading), [search](lib/search/README.md), [a folder](lib/search/),",
        '[this page](#see), [the web](https://example.com/missing) and <a href="docs/guide.md">HTML</a>.',
        "",
        "[ref]: docs/guide.md#configuration",
      ].join("\n"),
    });
    expect(brokenLinks(dir, ["README.md", "docs/guide.md"])).toEqual([]);
  });

  it("names each broken link: a missing file, a missing anchor, a missing anchor in the same file", () => {
    const dir = fixture({
      "docs/guide.md": GUIDE,
      "README.md": [
        "# Start",
        "",
        "[gone](docs/missing.md) and [no such heading](docs/guide.md#backups)",
        "",
        "[here](#nowhere)",
        "",
        "[ref]: docs/gone-too.md",
      ].join("\n"),
    });
    expect(brokenLinks(dir, ["README.md"])).toEqual([
      { file: "README.md", line: 3, target: "docs/missing.md", problem: "docs/missing.md does not exist" },
      { file: "README.md", line: 3, target: "docs/guide.md#backups", problem: 'docs/guide.md has no heading or anchor "#backups"' },
      { file: "README.md", line: 5, target: "#nowhere", problem: 'README.md has no heading or anchor "#nowhere"' },
      { file: "README.md", line: 7, target: "docs/gone-too.md", problem: "docs/gone-too.md does not exist" },
    ]);
  });

  it("resolves links relative to the file they are in", () => {
    const dir = fixture({ "docs/api.md": "[up](../README.md) [sibling](operating.md)", "README.md": "# Hi\n" });
    expect(brokenLinks(dir, ["docs/api.md"])).toEqual([
      { file: "docs/api.md", line: 1, target: "operating.md", problem: "docs/operating.md does not exist" },
    ]);
  });

  it("ignores links inside code blocks and code spans, which are examples", () => {
    const text = [
      "```md",
      "[broken](nowhere.md)",
      "```",
      "",
      "Write `[text](nowhere.md)` for a link.",
      "~~~",
      "[also](gone.md)",
      "~~~",
    ].join("\n");
    expect(linksOf(text)).toEqual([]);
  });

  it("computes anchors as GitHub does, duplicates numbered", () => {
    expect([...anchorsOf(GUIDE)]).toEqual([
      "operating-the-service",
      "configuration",
      "running-on-postgresql-database_url",
      "verifiable-credentials-open-badges-30",
      "configuration-1",
      "custom-anchor",
      "setext-heading",
    ]);
  });
});
