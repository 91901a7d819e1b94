// JSON text from outside (a request body, a credential to verify, a document another server sent),
// parsed with a limit on how deeply its arrays and objects nest. Size limits alone do not bound depth:
// 1 MiB of "[" is half a million levels, and code that walks or serializes the parsed value recursively
// (JSON.stringify, schema validation, JSON-LD canonicalization) then overflows the call stack. The depth
// is measured on the text, before JSON.parse, by a scan without recursion, so no deep value is ever built.

/**
 * Levels of arrays and objects a JSON input may nest. Legitimate inputs stay far below: a credential
 * we issue nests about 6 levels, a design document about 6, and the deepest search filter the grammar
 * allows (32 levels of AND/OR/NOT) about 70.
 */
export const MAX_JSON_DEPTH = 100;

/** The text nests deeper than allowed. `field`: the top-level member it happens in, when the text is an object. */
export class JsonTooDeepError extends Error {
  readonly field: string | null;
  readonly maxDepth: number;
  constructor(field: string | null, maxDepth: number) {
    super(`nests arrays and objects more than ${maxDepth} levels deep`);
    this.name = "JsonTooDeepError";
    this.field = field;
    this.maxDepth = maxDepth;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * Where `text` first nests deeper than `maxDepth`, or null when it does not. Brackets inside strings do
 * not count; the text is not otherwise checked (JSON.parse does that). Linear, no recursion.
 */
export function jsonDepthExcess(text: string, maxDepth = MAX_JSON_DEPTH): JsonTooDeepError | null {
  let depth = 0;
  // The top-level object's member being read: the string that follows its "{" or a "," at depth 1.
  let topIsObject = false;
  let expectingTopKey = false;
  let field: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      if (depth === 1 && expectingTopKey) {
        field = topLevelKey(text.slice(start, i + 1));
        expectingTopKey = false;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) return new JsonTooDeepError(field, maxDepth);
      if (depth === 1) expectingTopKey = topIsObject = c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth === 1) {
      expectingTopKey = topIsObject;
    }
  }
  return null;
}

function topLevelKey(quoted: string): string | null {
  try {
    const key = JSON.parse(quoted) as unknown;
    return typeof key === "string" ? key : null;
  } catch {
    return null; // malformed: JSON.parse of the whole text will say so
  }
}

/**
 * The value of JSON `text` from outside. Throws JsonTooDeepError when it nests deeper than `maxDepth`,
 * and JSON.parse's SyntaxError when it is not JSON.
 */
export function parseUntrustedJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const excess = jsonDepthExcess(text, maxDepth);
  if (excess) throw excess;
  return JSON.parse(text);
}
