#!/usr/bin/env node
// `node scripts/check-doc-links.mjs`: every relative link in every Markdown file of the repository
// (tracked, or new and not ignored) must lead somewhere: the file or folder must exist, and a `#anchor`
// must name a heading (or an explicit `id`/`name` anchor) of the file it points into. Links with a
// scheme (https:, mailto:) are left alone: the check is offline and fast, so it runs with `npm test`.
// Anchors are computed as GitHub computes them (github-slugger), since GitHub is where people read these.
// Exit code 0 when every link resolves; otherwise 1, with one line per broken link.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
// [text](target "title") and ![alt](target); the target may be <wrapped in angle brackets>.
const INLINE_LINK = /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_LINK = /<(?:a|img)\b[^>]*?\s(?:href|src)\s*=\s*("([^"]*)"|'([^']*)')/gi;
const HTML_ANCHOR = /<[a-z][^>]*?\s(?:id|name)\s*=\s*("([^"]*)"|'([^']*)')/gi;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The lines of a Markdown text that are prose (not inside a fenced code block), with their numbers. */
function proseLines(text) {
  const lines = [];
  let fence = null;
  text.split(/\r?\n/).forEach((line, index) => {
    const opening = FENCE.exec(line);
    if (fence) {
      // A fence closes with a line of the same character, at least as long, and nothing after it.
      const closing = CLOSING_FENCE.exec(line);
      if (closing && closing[1][0] === fence[0] && closing[1].length >= fence.length) fence = null;
      return;
    }
    if (opening) {
      fence = opening[1];
      return;
    }
    lines.push({ number: index + 1, text: line });
  });
  return lines;
}

/** A line without its code spans (a link written inside backticks is an example, not a link). */
function withoutCodeSpans(line) {
  return line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
}

/** A heading's text as GitHub renders it, before slugging: links become their text, markup goes. */
function headingText(raw) {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|\W)[*_](.+?)[*_](?=\W|$)/g, "$1$2")
    .replace(/`/g, "");
}

/** Every anchor a Markdown text defines: its headings' slugs and any explicit id or name. */
export function anchorsOf(text) {
  const slugger = new GithubSlugger();
  const anchors = new Set();
  const lines = proseLines(text);
  lines.forEach((line, i) => {
    const atx = ATX_HEADING.exec(line.text);
    let heading = atx ? atx[2] : null;
    const next = lines[i + 1];
    if (
      !heading &&
      line.text.trim() &&
      next &&
      next.number === line.number + 1 &&
      SETEXT_UNDERLINE.test(next.text) &&
      !/^\s*([-*_]\s*){3,}$/.test(line.text)
    ) {
      heading = line.text.trim();
    }
    if (heading !== null) anchors.add(slugger.slug(headingText(heading)));
    for (const match of line.text.matchAll(HTML_ANCHOR)) anchors.add(match[2] ?? match[3]);
  });
  return anchors;
}

/** Every link target in a Markdown text, with its line number. */
export function linksOf(text) {
  const links = [];
  for (const line of proseLines(text)) {
    const prose = withoutCodeSpans(line.text);
    const definition = REFERENCE_DEFINITION.exec(prose);
    if (definition) links.push({ line: line.number, target: definition[1] });
    for (const match of prose.matchAll(INLINE_LINK)) links.push({ line: line.number, target: match[1] });
    for (const match of prose.matchAll(HTML_LINK)) links.push({ line: line.number, target: match[2] ?? match[3] });
  }
  return links.map((link) => ({ ...link, target: link.target.replace(/^<(.*)>$/, "$1") }));
}

/**
 * The broken relative links of the given Markdown files (paths relative to `root`), as
 * `{ file, line, target, problem }`. An absolute path (`/docs/api.md`) is taken from the root.
 */
export function brokenLinks(root, files) {
  const anchorCache = new Map();
  const anchorsIn = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, "utf8")));
    return anchorCache.get(file);
  };
  const problems = [];
  for (const file of files) {
    const absolute = path.resolve(root, file);
    for (const { line, target } of linksOf(readFileSync(absolute, "utf8"))) {
      if (HAS_SCHEME.test(target) || target.startsWith("//")) continue;
      const hash = target.indexOf("#");
      const rawPath = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? null : target.slice(hash + 1);
      let linkedPath;
      try {
        linkedPath = decodeURIComponent(rawPath.split("?")[0]);
      } catch {
        problems.push({ file, line, target, problem: "the path is not valid percent-encoding" });
        continue;
      }
      const resolved =
        linkedPath === ""
          ? absolute
          : linkedPath.startsWith("/")
            ? path.join(root, linkedPath)
            : path.resolve(path.dirname(absolute), linkedPath);
      if (!existsSync(resolved)) {
        problems.push({ file, line, target, problem: `${path.relative(root, resolved) || "."} does not exist` });
        continue;
      }
      if (anchor === null || anchor === "") continue;
      if (statSync(resolved).isDirectory() || !/\.md$/i.test(resolved)) continue; // line anchors of code files (#L10) are GitHub's business
      let decoded;
      try {
        decoded = decodeURIComponent(anchor);
      } catch {
        decoded = anchor;
      }
      if (!anchorsIn(resolved).has(decoded)) {
        problems.push({ file, line, target, problem: `${path.relative(root, resolved)} has no heading or anchor "#${decoded}"` });
      }
    }
  }
  return problems;
}

const UNTRACKED_FOLDERS = new Set(["node_modules", ".next", ".git", "data", "test-results", "playwright-report"]);

/** Markdown files under `dir`, for a copy of the sources without git (a tarball). */
function markdownFilesIn(root, dir = root) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return UNTRACKED_FOLDERS.has(entry.name) ? [] : markdownFilesIn(root, path.join(dir, entry.name));
    return /\.md$/i.test(entry.name) ? [path.relative(root, path.join(dir, entry.name))] : [];
  });
}

/** The repository's Markdown files: tracked ones, and new ones git does not ignore. */
export function markdownFiles(root) {
  let listed;
  try {
    listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md", "*.MD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).split("\0");
  } catch {
    listed = markdownFilesIn(root);
  }
  return [...new Set(listed.filter(Boolean))].filter((file) => existsSync(path.join(root, file))).sort();
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const files = markdownFiles(root);
  const problems = brokenLinks(root, files);
  for (const p of problems) console.log(`${p.file}:${p.line}: ${p.target}: ${p.problem}`);
  const links = files.reduce((n, file) => n + linksOf(readFileSync(path.join(root, file), "utf8")).length, 0);
  console.log(
    `${problems.length ? `${problems.length} broken link(s)` : "every relative link resolves"}: ${links} links in ${files.length} Markdown files`,
  );
  process.exitCode = problems.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
