// Types of scripts/check-doc-links.mjs, for its unit test.
export type BrokenLink = { file: string; line: number; target: string; problem: string };
export function anchorsOf(text: string): Set<string>;
export function linksOf(text: string): { line: number; target: string }[];
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[];
export function markdownFiles(root: string): string[];
