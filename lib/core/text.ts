// The one rule for text that comes from outside: it must be valid Unicode, and what it may contain
// depends on the kind of field. Every request string field is built with `singleLineText` or
// `multiLineText`, and the /v1 wrapper checks every string of a body, query and path with
// `unicodeProblem` first, so a field without its own schema (a search value, a design's free text)
// still never reaches a database with a NUL (PostgreSQL refuses it, SQLite stores it) or with a lone
// surrogate (neither engine's driver can encode it).
import { z } from "zod";
import { findInJson, type JsonFinding } from "./json-walk";

/** C0 controls (U+0000–U+001F), DEL and the C1 controls (U+0080–U+009F). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, without tab, line feed and carriage return: what multi-line text may not contain. */
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Line and paragraph separators: line breaks in all but name. */
const UNICODE_LINE_BREAK = /[\u2028\u2029]/;
/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). In a name they make
 * the text read differently from what it is ("Ada‮ecnelovaL" shows as "AdaLovalence…"), on the wallet
 * and in email alike. The marks U+200E/U+200F, which only hint at direction, stay allowed.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** In a `u` regex, a surrogate pair is one code point: only unpaired halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Why a string is not valid Unicode text at all (a NUL or a lone surrogate), or null. */
export function unicodeProblem(value: string): string | null {
  if (LONE_SURROGATE.test(value)) return "must be valid Unicode text; it contains an unpaired surrogate";
  if (value.includes("\u0000")) return "must not contain NUL characters (U+0000)";
  return null;
}

export type TextKind = "single-line" | "multi-line";

/** Why a string may not be stored in a field of this kind, or null. */
export function textProblem(value: string, kind: TextKind): string | null {
  const basic = unicodeProblem(value);
  if (basic) return basic;
  if (kind === "multi-line") {
    const control = CONTROL_EXCEPT_LINE_BREAKS.exec(value);
    return control ? `must not contain control characters other than tab and line breaks (found ${codePoint(control[0])})` : null;
  }
  const control = CONTROL.exec(value) ?? UNICODE_LINE_BREAK.exec(value);
  if (control) return `must be a single line without control characters (found ${codePoint(control[0])})`;
  const bidi = BIDI_CONTROL.exec(value);
  if (bidi) return `must not contain bidirectional override or isolate characters (found ${codePoint(bidi[0])})`;
  return null;
}

function textSchema(kind: TextKind, options: TextOptions) {
  const base = options.trim ? z.string().trim() : z.string();
  return base.check((ctx) => {
    const problem = textProblem(ctx.value, kind);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });
}

/** `trim`: surrounding white space (line breaks included) is removed before the text is checked. */
export type TextOptions = { trim?: boolean };

/** Names, titles, tags, ids: one line, no control characters, no bidi overrides. */
export function singleLineText(options: TextOptions = {}) {
  return textSchema("single-line", options);
}

/** Descriptions, attribute values, email templates: tab and line breaks allowed, other controls not. */
export function multiLineText(options: TextOptions = {}) {
  return textSchema("multi-line", options);
}

/**
 * Every string in a parsed JSON value, field names included, that is not valid Unicode text, with its
 * path (at most `limit` of them).
 */
export function unicodeProblemsIn(root: unknown, limit = 20): JsonFinding[] {
  return findInJson(
    root,
    (key, value) => {
      const keyProblem = key === null ? null : unicodeProblem(key);
      if (keyProblem) return { message: `field names ${keyProblem.replace(/^must/, "must")}`, atParent: true };
      const problem = typeof value === "string" ? unicodeProblem(value) : null;
      return problem ? { message: problem } : null;
    },
    limit,
  );
}
