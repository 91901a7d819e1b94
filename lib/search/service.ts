// POST /v1/credentials/search: one page of the organization's credentials matching a filter, in a sort
// order, with keyset cursors. A cursor holds the position of the row it continues from (never an
// offset, so pages stay exact while credentials are created) and the search it belongs to.
import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { invalidField } from "../core/errors";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "../core/cursor";
import { LIMIT_DEFAULT, type Page } from "../core/pagination";
import { todayUtc } from "../core/dates";
import {
  credentialRowFromRaw,
  serializeCredential,
  type ApiCredential,
  type CredentialRow,
  type RawCredentialRow,
} from "../credentials/serialize";
import { config } from "../config";
import { directQuery } from "../db/direct-read";
import { Prisma } from "../generated/sqlite/client";
import type { Caller } from "../organizations/service";
import { DEFAULT_SORT, SORT_PROPERTIES, type Sort } from "./fields";
import { canonicalFilter, parseFilter, type Condition, type FilterNode } from "./filter";
import { filterBranches } from "./branches";
import { segments, type Position, type Segment } from "./order";
import type { SearchCredentialsInput, SearchFilter } from "./schema";
import { filterSql, hasRecipientSubstring, rareSubstringCount, type SqlContext } from "./sql";

const SCOPE = "credentials.search";
/**
 * A filter travels inside its cursors (deflated) up to this many compressed bytes, so later pages need
 * not repeat it; a larger one must be sent again with the cursor.
 */
const MAX_FILTER_IN_CURSOR = 64 * 1024;

/** How many credentials, in sort order, a recipient-substring search reads before it asks the text indexes instead. */
const PROBE_WINDOW = 3000;
/**
 * Fewer candidate recipients than this skip the probe and are looked up first: their credentials (a few
 * per recipient) are quicker to fetch and sort than a window of PROBE_WINDOW is to read and walk past.
 * SQLite counts FTS5 candidates (trigrams: of every organization; characters and pairs: of this one);
 * PostgreSQL the organization's recipients, whose credentials it then fetches one heap page each
 * (bench:search at a million: 333 recipients 14 ms, 4,400 recipients 400-600 ms; walking the
 * credentials instead costs about 5 ms per 1,000 read, so the two meet near 1,000 recipients).
 */
const RARE_CANDIDATES = { sqlite: 1500, postgresql: 1000 } as const;
/**
 * How far candidates are counted before the probe. SQLite's FTS5 count is about a millisecond either
 * way. PostgreSQL's reads each counted recipient row: up to 1,000 cost 10-15 ms for a common substring
 * the probe answers in 5, so it counts to 100 first (below that the substring is rare for certain and
 * the probe is skipped) and to RARE_CANDIDATES only when the probe fell short.
 */
const QUICK_COUNT = { sqlite: RARE_CANDIDATES.sqlite, postgresql: 100 } as const;

/**
 * The thresholds that choose a recipient substring's path. Every path gives the same page; tests set
 * small ones to take each path with a few rows (test/support/search/service.contract.ts).
 */
export type SearchTuning = { probeWindow: number; quickCount: number; rareCandidates: number };

function defaultTuning(engine: "sqlite" | "postgresql"): SearchTuning {
  return { probeWindow: PROBE_WINDOW, quickCount: QUICK_COUNT[engine], rareCandidates: RARE_CANDIDATES[engine] };
}

/**
 * What a search cursor carries, signed (lib/core/cursor.ts): the search it belongs to (a hash of its
 * filter and sort), the filter itself when small enough, and the position and direction to go on from.
 */
const CursorPayload = z.strictObject({
  searchKey: z.string(),
  /** The filter deflated, base64url; absent when too large to carry. */
  filter: z.string().optional(),
  sort: z.strictObject({ property: z.enum(SORT_PROPERTIES), order: z.enum(["asc", "desc"]) }),
  position: z.strictObject({ segment: z.union([z.literal(0), z.literal(1)]), value: z.string().nullable(), id: z.string() }),
  direction: z.enum(["next", "prev"]),
});
type CursorData = z.infer<typeof CursorPayload>;

function searchKey(tree: FilterNode, sort: Sort): string {
  return createHash("sha256")
    .update(`${canonicalFilter(tree)}\n${sort.property} ${sort.order}`)
    .digest("base64url")
    .slice(0, 22);
}

const INVALID_CURSOR = "is not a valid cursor for this search; use pagination.next or pagination.prev exactly as returned";

function readCursor(cursor: string): CursorData {
  const parsed = CursorPayload.safeParse(decodeCursor(SCOPE, cursor));
  if (!parsed.success) throw invalidField("cursor", INVALID_CURSOR);
  return parsed.data;
}

function writeCursor(data: CursorData): string {
  return encodeCursor(SCOPE, data);
}

function packFilter(raw: unknown): string | undefined {
  const packed = deflateRawSync(JSON.stringify(raw ?? null));
  return packed.length <= MAX_FILTER_IN_CURSOR ? packed.toString("base64url") : undefined;
}

function unpackFilter(packed: string): unknown {
  try {
    return JSON.parse(inflateRawSync(Buffer.from(packed, "base64url"), { maxOutputLength: 2 * 1024 * 1024 }).toString("utf8"));
  } catch {
    throw invalidField("cursor", INVALID_CURSOR);
  }
}

type ResolvedSearch = {
  tree: FilterNode;
  /** The filter deflated, base64url; undefined when too large to carry. */ filterJson: string | undefined;
  sort: Sort;
  key: string;
  cursor: CursorData | null;
};

/** The search to run: the request's, or the one its cursor continues; a cursor must match the request. */
function resolveSearch(input: { filter?: SearchFilter; sort?: Sort | null; cursor?: string | null }): ResolvedSearch {
  const cursor = input.cursor ? readCursor(input.cursor) : null;
  let tree: FilterNode;
  let raw: unknown;
  if (input.filter?.given || !cursor) {
    tree = input.filter?.tree ?? { type: "and", children: [] };
    raw = input.filter?.raw ?? null;
  } else {
    if (cursor.filter === undefined) {
      throw invalidField("cursor", "belongs to a search whose filter is too large to travel in the cursor; send the same filter with it");
    }
    raw = unpackFilter(cursor.filter);
    const parsed = parseFilter(raw);
    if (!parsed.ok) throw invalidField("cursor", INVALID_CURSOR);
    tree = parsed.tree;
  }
  const sort = input.sort ?? cursor?.sort ?? DEFAULT_SORT;
  const key = searchKey(tree, sort);
  if (cursor && cursor.searchKey !== key) {
    throw invalidField("cursor", "belongs to another search (its filter or sort differs); start again without a cursor");
  }
  return { tree, filterJson: packFilter(raw), sort, key, cursor };
}

type SearchRow = CredentialRow & { segment: number };

const COLUMNS = Prisma.raw(`c."id", c."publicId", c."groupId", c."status", c."recipientName", c."issueDate", c."expiryDate",
  c."customAttributes", c."revokedAt", c."revocationReason", c."createdAt", c."updatedAt",
  r."id" AS "recipient_id", r."name" AS "recipient_name", r."email" AS "recipient_email"`);

/**
 * Up to `take` rows of one segment after `position`. With several filter branches (branches.ts), each
 * branch is its own ordered, limited query and the database merges them (UNION also drops a row two
 * branches share).
 */
async function fetchSegment(
  organizationId: string,
  /** The filter as the indexed query runs it (one per branch); built when first needed, after the probe. */
  indexedFilters: () => Promise<Prisma.Sql[]>,
  segment: Segment,
  position: Position | null,
  backwards: boolean,
  take: number,
  probe: { filter: Prisma.Sql; window: number } | null,
  /** The filter matches a recipient substring: order the matches by their keys first (see select). */
  keysFirst: boolean,
): Promise<CredentialRow[]> {
  const after = segment.after(position, backwards);
  if (probe) {
    // The next probe.window (PROBE_WINDOW) credentials in sort order (an index range), filtered one by
    // one. When they hold `take` matches, those are the first `take` of the whole search: no earlier
    // credential was skipped. A common substring ("son", a domain) is answered here from a few thousand
    // rows instead of sorting its tens of thousands of matches; a rare one falls through to the indexed
    // lookup below.
    const windowed = Prisma.sql`
      SELECT ${COLUMNS}
      FROM (SELECT * FROM "Credential" c
            WHERE c."organizationId" = ${organizationId} AND ${segment.where} AND ${after.where}
            ORDER BY ${after.orderBy("c")} LIMIT ${probe.window}) c
      LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
      WHERE ${probe.filter}
      ORDER BY ${after.orderBy("c")}
      LIMIT ${take}`;
    const rows = await directQuery<RawCredentialRow>(windowed);
    if (rows.length === take) return rows.map(credentialRowFromRaw);
  }
  const where = (filter: Prisma.Sql) =>
    Prisma.sql`c."organizationId" = ${organizationId} AND ${segment.where} AND ${after.where} AND ${filter}`;
  const select = (filter: Prisma.Sql) =>
    keysFirst
      ? // A recipient substring's matches (thousands of credentials when the probe fell short) are put in
        // order by their ids and sort keys alone, which the (recipientId, organizationId, createdAt, id)
        // index holds for the default sort; only the page's rows are then read whole. Sorting whole
        // rows read every matching credential's row: on SQLite 67 ms for the 11,000 credentials of a
        // two-character surname at a million, 28 ms this way.
        Prisma.sql`
    SELECT ${COLUMNS}
    FROM (SELECT c."id" FROM "Credential" c WHERE ${where(filter)} ORDER BY ${after.orderBy("c")} LIMIT ${take}) page
    JOIN "Credential" c ON c."id" = page."id"
    LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    ORDER BY ${after.orderBy("c")}`
      : Prisma.sql`
    SELECT ${COLUMNS}
    FROM "Credential" c LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    WHERE ${where(filter)}
    ORDER BY ${after.orderBy("c")}
    LIMIT ${take}`;
  const filters = await indexedFilters();
  const query =
    filters.length === 1
      ? select(filters[0]!)
      : Prisma.sql`SELECT * FROM (${Prisma.join(
          filters.map((f, i) => Prisma.sql`SELECT * FROM (${select(f)}) ${Prisma.raw(`b${i}`)}`),
          " UNION ",
        )}) u ORDER BY ${after.orderBy("u")} LIMIT ${take}`;
  const rows = await directQuery<RawCredentialRow>(query);
  return rows.map(credentialRowFromRaw);
}

/**
 * A substring condition the filter requires with fewer than `cap` candidate recipients (text-index.ts),
 * so few that looking them up first beats reading the next PROBE_WINDOW credentials; null when there is
 * none. The count stops at the cap, so a common substring costs little to recognise.
 */
async function rareSubstring(tree: FilterNode, context: SqlContext, cap: number): Promise<Condition | null> {
  const rare = rareSubstringCount(tree, context, cap);
  if (!rare) return null;
  const [row] = await directQuery<{ n: number | bigint }>(rare.count);
  return Number(row?.n ?? 0) < cap ? rare.condition : null;
}

export async function searchCredentials(
  organization: Caller["organization"],
  input: SearchCredentialsInput,
  tuning?: SearchTuning,
): Promise<Page<ApiCredential>> {
  const today = todayUtc();
  const limit = input.limit ?? LIMIT_DEFAULT;
  const search = resolveSearch(input);
  const segs = segments(search.sort);
  const position = search.cursor?.position ?? null;
  if (position && position.segment >= segs.length) throw invalidField("cursor", INVALID_CURSOR);
  const backwards = search.cursor?.direction === "prev";
  const context: SqlContext = { organizationId: organization.id, today, engine: config().databaseProvider };
  const branches = filterBranches(search.tree);
  // Recipient substrings first try the next credentials in order (the probe in fetchSegment), unless
  // one the filter requires has few candidates: then those are looked up first. Other filters have
  // indexes of their own. Candidates are counted up to QUICK_COUNT before the probe, and when the
  // probe falls short up to RARE_CANDIDATES (PostgreSQL only; on SQLite the two are the same).
  const substring = !branches && hasRecipientSubstring(search.tree);
  const { probeWindow, quickCount, rareCandidates } = tuning ?? defaultTuning(context.engine);
  const rareBeforeProbe = substring ? await rareSubstring(search.tree, context, quickCount) : null;
  const probe =
    substring && !rareBeforeProbe ? { filter: filterSql(search.tree, { ...context, recipientJoined: true }), window: probeWindow } : null;
  let filters: Promise<Prisma.Sql[]> | null = null;
  const indexedFilters = () =>
    (filters ??= (async () => {
      const countAgain = substring && !rareBeforeProbe && quickCount < rareCandidates;
      const rare = countAgain ? await rareSubstring(search.tree, context, rareCandidates) : rareBeforeProbe;
      // On SQLite the index lookup inside the IN form already starts from the recipients (sql.ts).
      const filterContext = rare && context.engine === "postgresql" ? { ...context, recipientsFirst: rare } : context;
      return (branches ?? [search.tree]).map((tree) => filterSql(tree, filterContext));
    })());

  // Walk the segments from the cursor's onwards (backwards: towards the first) until a page and one
  // more row, which tells whether there is a further page, are found.
  const start = position?.segment ?? 0;
  const order = backwards
    ? segs.map((_, i) => start - i).filter((i) => i >= 0)
    : segs.map((_, i) => start + i).filter((i) => i < segs.length);
  const rows: SearchRow[] = [];
  for (const index of order) {
    const need = limit + 1 - rows.length;
    if (need <= 0) break;
    const found = await fetchSegment(
      organization.id,
      indexedFilters,
      segs[index]!,
      index === start ? position : null,
      backwards,
      need,
      probe,
      substring,
    );
    rows.push(...found.map((row) => ({ ...row, segment: index })));
  }
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();

  const at = (row: SearchRow | undefined, direction: CursorData["direction"]) =>
    row
      ? writeCursor({
          searchKey: search.key,
          ...(search.filterJson !== undefined ? { filter: search.filterJson } : {}),
          sort: search.sort,
          position: { segment: row.segment as 0 | 1, value: segs[row.segment]!.valueOf(row), id: row.id },
          direction,
        })
      : null;
  const first = page[0];
  const last = page[page.length - 1];
  const pagination = backwards
    ? { prev: more ? at(first, "prev") : null, next: at(last, "next") }
    : { prev: position ? at(first, "prev") : null, next: more ? at(last, "next") : null };
  return { data: page.map((row) => serializeCredential(row, today)), pagination };
}
