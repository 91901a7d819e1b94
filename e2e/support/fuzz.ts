// Building blocks of the /v1 fuzz (e2e/api/fuzz.spec.ts): hostile values, mutations of a valid JSON body
// that make it certainly invalid, bad query strings and path ids, a raw HTTP client that sends exactly the
// bytes it is given (Playwright's client would re-encode paths and refuse odd methods), and the checks every
// answer must pass (docs/api.md, Errors).
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import fc from "fast-check";

// ---- what the contract allows in an answer ---------------------------------------------------------

/** `error.code` → status, from docs/api.md, Errors. */
export const ERROR_STATUSES: Record<string, number> = {
  forbidden: 403,
  missing_version: 400,
  invalid_version: 400,
  unauthorized: 401,
  rate_limited: 429,
  payload_too_large: 413,
  invalid_json: 400,
  validation_error: 400,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payment_required: 402,
  idempotency_key_reused: 422,
  internal_server_error: 500,
};

// ---- JSON with parts JSON.stringify cannot write ---------------------------------------------------

/** JSON text spliced in as is: numbers like 1e400, nesting too deep to build as objects. */
export class RawJson {
  constructor(readonly text: string) {}
}
export type Json = null | boolean | number | string | RawJson | Json[] | { [key: string]: Json };
export type Path = (string | number)[];

/** JSON text of `value`. Lone surrogates and NUL come out as \ud800 and \u0000 escapes (JSON.stringify
 *  writes well-formed JSON since ES2019), so the body itself is valid UTF-8 and valid JSON. */
export function toJsonText(value: Json): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Sets an own property, also for the key `__proto__` (plain assignment would set the prototype). */
function define(target: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function clone(value: Json): Json {
  if (value instanceof RawJson || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(clone);
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) define(out, k, clone(v));
  return out;
}

function getAt(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const key of path) {
    if (node === null || typeof node !== "object" || node instanceof RawJson) return undefined;
    node = (node as Record<string | number, Json>)[key];
  }
  return node;
}

function setAt(root: Json, path: Path, value: Json): void {
  const parent = getAt(root, path.slice(0, -1));
  const key = path.at(-1)!;
  if (Array.isArray(parent)) parent[key as number] = value;
  else if (parent && typeof parent === "object" && !(parent instanceof RawJson)) define(parent, String(key), value);
}

function deleteAt(root: Json, path: Path): void {
  const parent = getAt(root, path.slice(0, -1));
  if (parent && typeof parent === "object" && !Array.isArray(parent) && !(parent instanceof RawJson)) delete parent[String(path.at(-1)!)];
}

/** `recipient.name`, `designIds[0]`: the server's detail path notation. */
export function formatPath(path: Path): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");
}

type Positions = { strings: Path[]; objects: Path[]; nodes: Path[]; properties: Path[] };

function positionsOf(value: Json, path: Path = [], out: Positions = { strings: [], objects: [], nodes: [], properties: [] }): Positions {
  if (path.length) out.nodes.push(path);
  if (typeof value === "string") out.strings.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => positionsOf(v, [...path, i], out));
  else if (value !== null && typeof value === "object" && !(value instanceof RawJson)) {
    out.objects.push(path);
    for (const [k, v] of Object.entries(value)) {
      out.properties.push([...path, k]);
      positionsOf(v, [...path, k], out);
    }
  }
  return out;
}

// ---- hostile text ----------------------------------------------------------------------------------

type Piece = readonly [kind: string, text: string];

/** Refused in every string of every /v1 body once issue 14 is fixed: NUL and lone surrogates. A request
 *  carrying one of these is certainly invalid, so the fuzz can demand an error and that nothing is written. */
export const REFUSED_EVERYWHERE: Piece[] = [
  ["NUL", "\u0000"],
  ["lone high surrogate", "\ud800"],
  ["lone high surrogate", "\udbff"],
  ["lone low surrogate", "\udc00"],
  ["lone low surrogate", "\udfff"],
  ["reversed surrogate pair", "\udc00\ud800"],
];

/** Hostile, but not refused in every field (tab/CR/LF are fine in an email body, emoji in a name). */
export const OTHER_HOSTILE: Piece[] = [
  ["C0 control", "\u0001"],
  ["C0 control", "\u0008"],
  ["C0 control (ESC)", "\u001b[31m"],
  ["C0 control", "\u001f"],
  ["DEL", "\u007f"],
  ["C1 control", "\u0085"],
  ["C1 control", "\u009b"],
  ["tab/CR/LF", "\t\r\n"],
  ["bidi override U+202E", "\u202e"],
  ["bidi override U+202D", "\u202d"],
  ["bidi embedding U+202A", "\u202a"],
  ["bidi isolate U+2066", "\u2066"],
  ["bidi isolate U+2067", "\u2067"],
  ["bidi isolate U+2068", "\u2068"],
  ["pop isolate U+2069", "\u2069"],
  ["noncharacter U+FFFF", "\uffff"],
  ["noncharacter U+FFFE", "\ufffe"],
  ["BOM", "\ufeff"],
  ["replacement character", "\ufffd"],
  ["zero-width", "\u200b\u200d"],
  ["line/paragraph separator", "\u2028\u2029"],
  ["emoji", "🎓"],
  ["emoji ZWJ sequence", "👩‍👩‍👧‍👦"],
  ["flag", "🇺🇦"],
  ["astral letter", "𝕏"],
  ["combining flood", `e${"\u0301".repeat(2000)}`],
  ["Arabic", "مرحبا"],
  ["CJK", "漢字"],
  ["placeholder", "[recipient.name]"],
  ["HTML", "<script>alert(1)</script>"],
  ["SQL", "' OR '1'='1' --"],
  ["JSON", '"},{"x":'],
  ["percent escapes", "%00%ff"],
  ["path traversal", "../../etc/passwd"],
  ["format string", "%s%n{0}"],
];

export type Hostile = { kind: string; text: string };

/** A hostile string: one main piece (from REFUSED_EVERYWHERE when `refused`), sometimes repeated or after
 *  a long run of ordinary text, with up to two other hostile pieces. Stays well under the 1 MiB body limit. */
export function hostileText(refused: boolean): fc.Arbitrary<Hostile> {
  return fc
    .record({
      main: fc.constantFrom(...(refused ? REFUSED_EVERYWHERE : [...REFUSED_EVERYWHERE, ...OTHER_HOSTILE])),
      others: fc.array(fc.constantFrom(...OTHER_HOSTILE), { maxLength: 2 }),
      repeat: fc.oneof({ weight: 6, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 20_000 }) }),
      padding: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }) }),
      mainFirst: fc.boolean(),
    })
    .map(({ main, others, repeat, padding, mainFirst }) => {
      const times = Math.max(1, Math.min(repeat, Math.floor(40_000 / main[1].length)));
      const core = main[1].repeat(times);
      const rest = others.map((o) => o[1]).join("");
      return { kind: main[0], text: "x".repeat(padding) + (mainFirst ? core + rest : rest + core) };
    });
}

/** Shows a string JSON-quoted, so that its hostile characters are visible, and shortened around them. */
export function visible(text: string, max = 160): string {
  return shorten(JSON.stringify(text), max);
}

/** At most `max` characters of already printable text, starting a little before its first escape. */
export function shorten(text: string, max = 160): string {
  if (text.length <= max) return text;
  const firstOdd = text.search(/\\u|\\[trn]|[^\x20-\x7e]/);
  const start = Math.max(0, Math.min(firstOdd < 0 ? 0 : firstOdd - 20, text.length - max));
  return `${start > 0 ? `…(${start} chars)` : ""}${text.slice(start, start + max)}…(${text.length} chars)`;
}

// ---- mutations of a valid JSON body ----------------------------------------------------------------

/** `kind` names the defect class (grouped in reports), `where` the field or parameter it went into. */
export type Mutation = { kind: string; detail: string; where?: string };
type Edit = Mutation & { at: Path; apply: (root: Json) => void };

export type BodyCase = { body: Buffer; contentType: string | undefined; mutations: Mutation[]; field?: string };

const WRONG_TYPES: Json[] = [0, -1, 1.5, true, false, null, [], {}, "", "0", [null], { a: 1 }];
const HUGE_NUMBERS = [
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "123456789012345678901234567890",
  "9007199254740993",
  "1.7976931348623157e308",
  "0.1e1",
];
const ODD_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "\u0000",
  "\ud800",
  "name\u0000",
  "",
  " ",
  "Name",
  "x".repeat(300),
  "\u202ename",
];

function deepNesting(depth: number, shape: "array" | "object" | "NOT"): RawJson {
  if (shape === "array") return new RawJson("[".repeat(depth) + "]".repeat(depth));
  const open = shape === "object" ? '{"a":' : '{"NOT":';
  return new RawJson(open.repeat(depth) + "{}" + "}".repeat(depth));
}

const pick = <T>(xs: T[]) => fc.constantFrom(...xs);

/** Edits that make the body certainly invalid: a refused character in a string (inserted into the valid
 *  value, or replacing it), a `__proto__` key anywhere, an unknown key at the top level. */
function certainEdit(base: Json, rootKeys: string[], strictRoot: boolean): fc.Arbitrary<Edit> {
  const pos = positionsOf(base);
  const options: fc.WeightedArbitrary<Edit>[] = [];
  if (pos.strings.length) {
    options.push({
      weight: 6,
      arbitrary: fc.tuple(pick(pos.strings), hostileText(true), fc.nat()).map(([at, h, cut]) => {
        const old = getAt(base, at) as string;
        const i = old.length ? cut % (old.length + 1) : 0;
        const value = old.slice(0, i) + h.text + old.slice(i);
        return {
          kind: `${h.kind} in a string`,
          where: formatPath(at),
          detail: `${formatPath(at)} = ${visible(value)}`,
          at,
          apply: (root: Json) => setAt(root, at, value),
        };
      }),
    });
    options.push({
      weight: 2,
      arbitrary: fc.tuple(pick(pos.strings), hostileText(true)).map(([at, h]) => ({
        kind: `${h.kind} in a string`,
        where: formatPath(at),
        detail: `${formatPath(at)} = ${visible(h.text)}`,
        at,
        apply: (root: Json) => setAt(root, at, h.text),
      })),
    });
  }
  options.push({
    weight: 1,
    arbitrary: fc.tuple(pick(pos.objects), pick<Json>(["x", 1, {}, { polluted: true }, null])).map(([at, v]) => ({
      kind: "__proto__ key",
      detail: `${formatPath([...at, "__proto__"])} = ${toJsonText(v)}`,
      at: [...at, "__proto__"],
      apply: (root: Json) => setAt(root, [...at, "__proto__"], v),
    })),
  });
  const unknown = ODD_KEYS.filter((k) => !rootKeys.includes(k) && (strictRoot || k === "__proto__"));
  options.push({
    weight: 1,
    arbitrary: fc.tuple(pick(unknown), pick<Json>(["x", 1, true, null, { a: "\u0000" }])).map(([key, v]) => ({
      kind: key === "__proto__" ? "__proto__ key" : "unknown top-level key",
      detail: `${visible(key, 40)} = ${toJsonText(v)}`,
      at: [key],
      apply: (root: Json) => setAt(root, [key], v),
    })),
  });
  return fc.oneof(...options);
}

/** Edits that may or may not be valid on their own (the certain edit makes the request invalid anyway). */
function extraEdit(base: Json): fc.Arbitrary<Edit> {
  const pos = positionsOf(base);
  const options: fc.Arbitrary<Edit>[] = [];
  if (pos.nodes.length) {
    options.push(
      fc.tuple(pick(pos.nodes), pick(WRONG_TYPES)).map(([at, v]) => ({
        kind: "wrong type",
        detail: `${formatPath(at)} = ${toJsonText(v)}`,
        at,
        apply: (root: Json) => setAt(root, at, clone(v)),
      })),
      fc.tuple(pick(pos.nodes), pick(HUGE_NUMBERS)).map(([at, n]) => ({
        kind: "huge number",
        detail: `${formatPath(at)} = ${n}`,
        at,
        apply: (root: Json) => setAt(root, at, new RawJson(n)),
      })),
      fc
        .tuple(pick(pos.nodes), pick([64, 1_000, 20_000]), pick<"array" | "object" | "NOT">(["array", "object", "NOT"]))
        .map(([at, depth, shape]) => ({
          kind: "deep nesting",
          detail: `${formatPath(at)} = ${shape} nested ${depth} deep`,
          at,
          apply: (root: Json) => setAt(root, at, deepNesting(depth, shape)),
        })),
    );
  }
  if (pos.strings.length) {
    options.push(
      fc.tuple(pick(pos.strings), hostileText(false)).map(([at, h]) => ({
        kind: `${h.kind} in a string`,
        where: formatPath(at),
        detail: `${formatPath(at)} = ${visible(h.text)}`,
        at,
        apply: (root: Json) => setAt(root, at, h.text),
      })),
    );
  }
  if (pos.objects.length) {
    options.push(
      fc.tuple(pick(pos.objects), pick(ODD_KEYS), pick<Json>(["x", 0, null, []])).map(([at, key, v]) => ({
        kind: "odd key",
        detail: `${formatPath([...at, key])} = ${toJsonText(v)}`,
        at: [...at, key],
        apply: (root: Json) => setAt(root, [...at, key], v),
      })),
    );
  }
  if (pos.properties.length) {
    options.push(
      pick(pos.properties).map((at) => ({ kind: "missing field", detail: formatPath(at), at, apply: (root: Json) => deleteAt(root, at) })),
    );
  }
  return fc.oneof(...options);
}

const isPrefix = (a: Path, b: Path) => a.length <= b.length && a.every((k, i) => k === b[i]);

const JSON_CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  undefined,
  "application/x-www-form-urlencoded",
  "application/json; charset=latin1",
];

/** A valid body with one certain edit and up to two others (never on the certainly invalid value's path). */
function editedJson(base: Record<string, Json>, strictRoot: boolean): fc.Arbitrary<BodyCase> {
  return fc
    .record({
      certain: certainEdit(base, Object.keys(base), strictRoot),
      // Mostly none: each extra that the server refuses on its own stops the request before the
      // refused character reaches deeper code.
      extras: fc.oneof(
        { weight: 3, arbitrary: fc.constant<Edit[]>([]) },
        { weight: 2, arbitrary: fc.array(extraEdit(base), { minLength: 1, maxLength: 2 }) },
      ),
      contentType: pick(JSON_CONTENT_TYPES),
    })
    .map(({ certain, extras, contentType }) => {
      const root = clone(base);
      const kept = extras.filter((e) => !isPrefix(e.at, certain.at) && !isPrefix(certain.at, e.at));
      const applied: Edit[] = [];
      for (const e of kept) {
        // An earlier extra may have replaced this one's parent; then it no longer applies.
        if (e.at.length > 1 && getAt(root, e.at.slice(0, -1)) === undefined) continue;
        if (applied.some((a) => isPrefix(a.at, e.at) || isPrefix(e.at, a.at))) continue;
        e.apply(root);
        applied.push(e);
      }
      certain.apply(root);
      return {
        body: Buffer.from(toJsonText(root), "utf8"),
        contentType,
        mutations: [certain, ...applied].map(({ kind, detail, where }) => ({ kind, detail, where })),
      };
    });
}

const NOT_JSON = [
  "",
  " ",
  "\n",
  "{",
  "}",
  '{"a":',
  "[]",
  "[{}]",
  "null",
  "0",
  "true",
  '"text"',
  "{'a':1}",
  '{"a":1,}',
  '{"a" 1}',
  "NaN",
  "name=x&type=badge",
  "<xml/>",
  "\u0000",
  '{"a":"\\ud800"',
  '{"a":"\\x00"}',
  '{"a":"\\u12"}',
  "{}}",
  "{}{}",
  "\ufeff{}",
];

/** Invalid UTF-8: RFC 8259 section 8.1 requires UTF-8, so such a body is not JSON text. */
export const BAD_UTF8: [string, number[]][] = [
  ["lone continuation byte", [0x80]],
  ["byte 0xFF", [0xff]],
  ["bytes 0xFE 0xFF", [0xfe, 0xff]],
  ["overlong NUL (C0 80)", [0xc0, 0x80]],
  ["overlong slash (C0 AF)", [0xc0, 0xaf]],
  ["CESU-8 surrogate (ED A0 80)", [0xed, 0xa0, 0x80]],
  ["truncated sequence (E2 82)", [0xe2, 0x82]],
  ["5-byte form", [0xf8, 0x88, 0x80, 0x80, 0x80]],
  ["above U+10FFFF (F4 90 80 80)", [0xf4, 0x90, 0x80, 0x80]],
  ["Latin-1 é (E9)", [0xe9]],
];

const MARKER = "FUZZ-BAD-BYTES";

/** Bodies that are not JSON objects at all, or not UTF-8: refused with invalid_json. */
function notJsonBody(base: Record<string, Json>): fc.Arbitrary<BodyCase> {
  const pos = positionsOf(base);
  const text = pick(NOT_JSON).map((t) => ({
    body: Buffer.from(t, "utf8"),
    contentType: "application/json",
    mutations: [{ kind: "not a JSON object", detail: visible(t) }],
  }));
  const bytes = fc
    .uint8Array({ minLength: 1, maxLength: 300 })
    .filter((b) => {
      const first = b.find((x) => ![0x20, 0x09, 0x0a, 0x0d].includes(x));
      return first !== undefined && first !== 0x7b; // a JSON object starts with "{"
    })
    .map((b) => ({
      body: Buffer.from(b),
      contentType: "application/json",
      mutations: [{ kind: "random bytes", detail: Buffer.from(b).toString("hex").slice(0, 60) }],
    }));
  const options: fc.Arbitrary<BodyCase>[] = [text, bytes];
  if (pos.strings.length) {
    options.push(
      fc.tuple(pick(pos.strings), pick(BAD_UTF8)).map(([at, [label, seq]]) => {
        const root = clone(base);
        setAt(root, at, `${getAt(base, at) as string}${MARKER}`);
        const utf8 = Buffer.from(toJsonText(root), "utf8");
        const i = utf8.indexOf(MARKER);
        const body = Buffer.concat([utf8.subarray(0, i), Buffer.from(seq), utf8.subarray(i + MARKER.length)]);
        return {
          body,
          contentType: "application/json",
          mutations: [{ kind: `not UTF-8: ${label}`, where: formatPath(at), detail: `in ${formatPath(at)}` }],
        };
      }),
      pick([true, false]).map((bom) => ({
        body: Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(toJsonText(base), "utf16le")]),
        contentType: "application/json",
        mutations: [{ kind: "UTF-16 body", detail: bom ? "UTF-16LE with BOM" : "UTF-16LE" }],
      })),
    );
  }
  return fc.oneof(...options);
}

/** A certainly invalid body derived from the valid `base`. `strictRoot`: the schema refuses unknown
 *  top-level keys (additionalProperties: false), so adding one is certainly invalid too. */
export function invalidBody(base: Record<string, Json>, strictRoot: boolean): fc.Arbitrary<BodyCase> {
  return fc.oneof({ weight: 8, arbitrary: editedJson(base, strictRoot) }, { weight: 2, arbitrary: notJsonBody(base) });
}

/** The same valid body with NUL, a lone high and a lone low surrogate in the middle of each of its strings
 *  in turn: every string position, whatever the sample happens to pick. */
export function everyStringPosition(base: Record<string, Json>): BodyCase[] {
  const pieces = REFUSED_EVERYWHERE.filter(([, t]) => ["\u0000", "\ud800", "\udfff"].includes(t));
  return positionsOf(base).strings.flatMap((at) =>
    pieces.map(([kind, piece]) => {
      const root = clone(base);
      const old = getAt(base, at) as string;
      const value = old.slice(0, Math.ceil(old.length / 2)) + piece + old.slice(Math.ceil(old.length / 2));
      setAt(root, at, value);
      return {
        body: Buffer.from(toJsonText(root), "utf8"),
        contentType: "application/json",
        mutations: [{ kind: `${kind} in a string`, where: formatPath(at), detail: `${formatPath(at)} = ${visible(value)}` }],
      };
    }),
  );
}

/** Any body on a route that takes none (ignored or refused, but never a 500). */
export function strayBody(): fc.Arbitrary<BodyCase> {
  return fc.oneof(editedJson({ name: "stray" }, true), notJsonBody({ name: "stray" }));
}

// ---- query strings ---------------------------------------------------------------------------------

/** `names`: the parameters it sets, so that a query built of several never sets one twice by accident. */
export type QueryCase = { text: string; names: string[]; mutations: Mutation[]; certain: boolean };

const UNKNOWN_PARAM_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "foo",
  "Limit",
  "limit[]",
  "%00",
  "a%00b",
  "%ff",
  "%ED%A0%80",
  "%E2%80%AE",
  "filter",
  "sort",
  "",
  "x".repeat(300),
];
const PARAM_VALUES = ["1", "", "%00", "%ff", "%ED%A0%80", "%C0%80", "%E2%80%AE", "%F0%9F%8E%93", "x".repeat(3000), "%zz", "%", "__proto__"];
/** Values every declared parameter refuses after the fix (NUL), plus per-name invalid values. */
const BAD_VALUES: Record<string, string[]> = {
  limit: [
    "%00",
    "0",
    "101",
    "-1",
    "1e1",
    "0x10",
    "%2B5",
    "10.0",
    "%ff",
    "%ED%A0%80",
    "",
    "%205",
    "5%00",
    "abc",
    "999999999999999999999",
    "%zz",
    "%",
  ],
  cursor: ["%00", "garbage", "x".repeat(3000), "%ff", "%ED%A0%80", "eyJ0IjoiMjAyNiJ9", "", "%zz", "a%00"],
  credentialId: ["%00", "%ff", "%ED%A0%80", "cred_does_not_exist", "", "x".repeat(300), "%zz", "__proto__"],
};
const GENERIC_BAD_VALUES = ["%00", "a%00b"];

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A query with at least one certainly invalid parameter (unknown name, or a declared one with a bad value). */
export function badQuery(declared: string[]): fc.Arbitrary<QueryCase> {
  const unknownNames = UNKNOWN_PARAM_NAMES.filter((n) => !declared.includes(n));
  const unknown = fc.tuple(pick(unknownNames), pick(PARAM_VALUES)).map(([n, v]) => ({
    text: `${n}=${v}`,
    names: [n],
    mutations: [
      { kind: `unknown query parameter`, where: visible(decodeURIComponentSafe(n), 40), detail: `${n.slice(0, 40)}=${v.slice(0, 40)}` },
    ],
    certain: true,
  }));
  const options: fc.Arbitrary<QueryCase>[] = [unknown];
  if (declared.length) {
    options.push(
      pick(declared)
        .chain((n) => fc.tuple(fc.constant(n), pick(BAD_VALUES[n] ?? GENERIC_BAD_VALUES)))
        .map(([n, v]) => ({
          text: `${n}=${v}`,
          names: [n],
          mutations: [{ kind: `bad query parameter`, where: `${n}=${v.slice(0, 20)}`, detail: `${n}=${v.slice(0, 60)}` }],
          certain: true,
        })),
    );
  }
  return fc.oneof(...options);
}

/** Query parameters that may be fine on their own: duplicates, valid values. */
export function extraQuery(declared: string[]): fc.Arbitrary<QueryCase> {
  const options: fc.Arbitrary<QueryCase>[] = [badQuery(declared)];
  if (declared.includes("limit")) {
    options.push(
      pick(["limit=5&limit=%00", "limit=%00&limit=5", "limit=5&limit=6", "limit=5", "limit=100&limit=101"]).map((t) => ({
        text: t,
        names: ["limit"],
        mutations: [{ kind: "duplicated or valid parameter", detail: t }],
        certain: false,
      })),
    );
  }
  return fc.oneof(...options);
}

// ---- path ids --------------------------------------------------------------------------------------

/** Path ids that name no resource: 404 not_found (or a 400), never a 500. Raw, as sent on the wire. */
export const HOSTILE_IDS: string[] = [
  "%00",
  "a%00b",
  "%ff",
  "%fe%ff",
  "%ED%A0%80",
  "%ed%b0%80",
  "%C0%80",
  "%C0%AF",
  "%E2%80%AE",
  "%E2%81%A6x",
  "%EF%BF%BF",
  "%F0%9F%8E%93",
  "..%2f",
  "..%2f..%2f..%2fetc%2fpasswd",
  "%2F",
  "%5C",
  "%0A",
  "%0D%0A",
  "%09",
  "%20",
  "%7F",
  "%",
  "%zz",
  "%%",
  "%2",
  "x".repeat(3000),
  "__proto__",
  "constructor",
  "null",
  "0",
  "-1",
  "%27%20OR%20%271%27%3D%271",
  "%22%7D",
];

// ---- sending ---------------------------------------------------------------------------------------

export type RawRequest = { method: string; target: string; headers: Record<string, string>; body?: Buffer };
export type Answer = { status: number; headers: IncomingHttpHeaders; text: string } | { error: string };

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** Sends exactly `method target` with these headers and bytes. A transport failure is an answer too. */
export function sendRaw(baseURL: string, req: RawRequest, timeoutMs = 30_000): Promise<Answer> {
  const url = new URL(baseURL);
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body) headers["Content-Length"] = String(req.body.length);
    const r = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.target, headers, agent: req.method === "FUZZ" ? false : agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (e) => resolve({ error: `response: ${e.message}` }));
      },
    );
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    r.on("error", (e) => resolve({ error: e.message }));
    r.end(req.body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** sendRaw, waiting out 429s so that the rate limit never hides what the request would get. */
export async function sendPatiently(baseURL: string, req: RawRequest): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await sendRaw(baseURL, req);
    if ("error" in answer || answer.status !== 429 || attempt >= 30) return answer;
    const wait = Number(answer.headers["retry-after"] ?? "1");
    await sleep(Math.max(200, Math.min(5, Number.isFinite(wait) ? wait : 1) * 1000));
  }
}

/** Runs `work` over `items` with at most `width` in flight. */
export async function inParallel<T>(items: T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

// ---- checking an answer ----------------------------------------------------------------------------

export type ErrorEnvelope = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

/** What is wrong with an answer, by docs/api.md, Errors; empty when nothing is. */
export function answerProblems(answer: Answer, options: { mustFail: boolean; allow?: string[] }): string[] {
  if ("error" in answer) return [`no HTTP answer (${answer.error})`];
  const problems: string[] = [];
  const { status, headers, text } = answer;
  if (status >= 500) problems.push(`status ${status}`);
  if (!headers["x-request-id"]) problems.push("no X-Request-Id header");
  if (options.mustFail && status < 400) problems.push(`accepted (${status}) a request that must be refused`);
  if (status >= 400) {
    let body: ErrorEnvelope | undefined;
    try {
      body = JSON.parse(text) as ErrorEnvelope;
    } catch {
      problems.push(`not the JSON error envelope: ${visible(text, 80)}`);
    }
    if (body) {
      const code = body.error?.code;
      if (typeof code !== "string" || typeof body.error?.message !== "string" || !body.error.message) {
        problems.push(`not the error envelope: ${visible(text, 120)}`);
      } else if (!(code in ERROR_STATUSES)) {
        problems.push(`error code ${code} is not in the contract`);
      } else if (ERROR_STATUSES[code] !== status) {
        problems.push(`error code ${code} with status ${status} (docs/api.md says ${ERROR_STATUSES[code]})`);
      }
      if (code === "validation_error") {
        const details = body.error.details;
        const ok =
          Array.isArray(details) &&
          details.length > 0 &&
          details.every((d) => typeof d?.path === "string" && typeof d?.message === "string");
        if (!ok) problems.push("validation_error without details [{path, message}]");
      }
      if (!String(headers["content-type"] ?? "").includes("application/json"))
        problems.push(`Content-Type ${headers["content-type"] ?? "(none)"} on an error`);
    }
  }
  if (status === 405) {
    const allow = String(headers["allow"] ?? "")
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean);
    if (!allow.length) problems.push("405 without Allow");
    for (const m of options.allow ?? []) if (allow.length && !allow.includes(m)) problems.push(`Allow (${allow.join(", ")}) lacks ${m}`);
  }
  return problems;
}

/** The first few hundred characters of a body, hostile characters visible. */
export function bodyExcerpt(body: Buffer | undefined, max = 240): string {
  if (!body) return "(none)";
  const text = body.toString("utf8");
  if (Buffer.from(text, "utf8").equals(body)) return visible(text, max);
  return `(${body.length} bytes, not UTF-8) ${visible(body.toString("latin1"), max)}`;
}
