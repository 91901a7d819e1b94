// A parsed filter tree → a parameterized SQL condition over `"Credential" c`, the same text on SQLite
// and PostgreSQL but for one narrowing step (recipient substrings, see text-index.ts). Every condition
// it produces is two-valued (true or false, never NULL), so `NOT` is the exact complement of what it
// wraps; see README.md for why.
import { Prisma } from "../generated/sqlite/client";
import type { CredentialStatus } from "../credentials/schema";
import type { Condition, FilterNode, Scalar } from "./filter";
import { FIELDS, type FieldName } from "./fields";
import { instantBounds, type Instant } from "./instant";
import { likeColumn, sqliteCandidateCount, substringCandidates } from "./text-index";

type Sql = Prisma.Sql;
const { sql, join, raw } = Prisma;

const TRUE = raw("(1 = 1)");
const FALSE = raw("(1 = 0)");

/** The credential column of each non-recipient field. */
const COLUMNS: Record<Exclude<FieldName, "recipient.name" | "recipient.email" | "status">, Sql> = {
  id: raw(`c."id"`),
  publicId: raw(`c."publicId"`),
  groupId: raw(`c."groupId"`),
  recipientId: raw(`c."recipientId"`),
  issueDate: raw(`c."issueDate"`),
  expiryDate: raw(`c."expiryDate"`),
  createdAt: raw(`c."createdAt"`),
  updatedAt: raw(`c."updatedAt"`),
  revokedAt: raw(`c."revokedAt"`),
};

/** Recipient fields are matched on the case-folded columns, the filter's text being folded the same way. */
const RECIPIENT_COLUMNS = { "recipient.name": raw(`r2."nameNormalized"`), "recipient.email": raw(`r2."emailNormalized"`) } as const;

export type SqlContext = {
  organizationId: string;
  today: string;
  engine: "sqlite" | "postgresql";
  /**
   * The query joins each credential's recipient as `r` and reads few credentials (the windowed probe in
   * service.ts): recipient fields are then compared on that row, one credential at a time, instead of
   * as a set of matching recipients looked up first.
   */
  recipientJoined?: boolean;
  /**
   * PostgreSQL: a substring condition every match must meet whose recipients were counted and are few
   * (rareSubstringCount): its recipients are looked up first and their credentials fetched by recipient.
   * As `IN (subquery)` the planner instead walks the credentials in sort order checking each one (its
   * estimate of a LIKE's matches is often 10x too high): 22,000 credentials and 120-200 ms for a rare
   * name prefix at a million credentials.
   */
  recipientsFirst?: Condition;
};

/** Recipient fields are compared on the joined row `r` (see SqlContext.recipientJoined). */
const JOINED_RECIPIENT_COLUMNS = { "recipient.name": raw(`r."nameNormalized"`), "recipient.email": raw(`r."emailNormalized"`) } as const;

/** Whether the filter matches a substring of a recipient's name or email anywhere (contains, startsWith, endsWith). */
export function hasRecipientSubstring(node: FilterNode): boolean {
  switch (node.type) {
    case "and":
    case "or":
      return node.children.some(hasRecipientSubstring);
    case "not":
      return hasRecipientSubstring(node.child);
    case "condition": {
      const { field, op } = node.condition;
      return (field === "recipient.name" || field === "recipient.email") && (op === "contains" || op === "startsWith" || op === "endsWith");
    }
  }
}

export function filterSql(node: FilterNode, ctx: SqlContext): Sql {
  switch (node.type) {
    case "and":
      return node.children.length
        ? sql`(${join(
            node.children.map((n) => filterSql(n, ctx)),
            " AND ",
          )})`
        : TRUE;
    case "or":
      return node.children.length
        ? sql`(${join(
            node.children.map((n) => filterSql(n, ctx)),
            " OR ",
          )})`
        : FALSE;
    case "not":
      return sql`(NOT ${filterSql(node.child, ctx)})`;
    case "condition":
      return conditionSql(node.condition, ctx);
  }
}

function conditionSql(c: Condition, ctx: SqlContext): Sql {
  // Negative operators are the complement of their positive ones; with two-valued positives that
  // includes the credentials where the field is null.
  if ("values" in c) {
    const match = positive(c.field, "in", c.values, ctx);
    return c.op === "in" ? match : sql`(NOT ${match})`;
  }
  if (c.value === null) return c.op === "not" ? notNull(c.field) : sql`(NOT ${notNull(c.field)})`;
  if (c.op === "not") return sql`(NOT ${positive(c.field, "equals", [c.value], ctx)})`;
  if (c === ctx.recipientsFirst && (c.field === "recipient.name" || c.field === "recipient.email")) {
    // ARRAY(...) is evaluated once, before the credentials are read (an InitPlan), and the credentials
    // are then found through their recipientId index. Same rows as the IN form below.
    const match = recipientMatch(c.field, c.op, [c.value], ctx);
    return sql`(c."recipientId" IS NOT NULL AND c."recipientId" = ANY(ARRAY(SELECT r2."id" FROM "Recipient" r2 WHERE r2."organizationId" = ${ctx.organizationId} AND ${match})))`;
  }
  return positive(c.field, c.op, [c.value], ctx);
}

type PositiveOp = "equals" | "in" | "contains" | "startsWith" | "endsWith" | "gt" | "gte" | "lt" | "lte";

/** True where the field has a value; a recipient field has one exactly when there is a recipient. */
function notNull(field: FieldName): Sql {
  if (field === "recipient.name" || field === "recipient.email") return sql`(c."recipientId" IS NOT NULL)`;
  if (!FIELDS[field].nullable) return TRUE;
  return sql`(${COLUMNS[field as keyof typeof COLUMNS]} IS NOT NULL)`;
}

/** A positive comparison; false (not NULL) where the field is null. */
function positive(field: FieldName, op: PositiveOp, values: Scalar[], ctx: SqlContext): Sql {
  if (field === "status") return statusIn(values as CredentialStatus[], ctx.today);
  if ((field === "recipient.name" || field === "recipient.email") && ctx.recipientJoined) {
    // The credential has a recipient exactly when the joined row exists; its normalized columns are never null.
    return sql`(c."recipientId" IS NOT NULL AND ${comparison(JOINED_RECIPIENT_COLUMNS[field], op, values, "text")})`;
  }
  if (field === "recipient.name" || field === "recipient.email") {
    // A subquery on the organization's recipients, so the planner can start from the recipient index
    // (an exact email finds its few credentials through c.recipientId).
    const match = recipientMatch(field, op, values, ctx);
    return sql`(c."recipientId" IS NOT NULL AND c."recipientId" IN (SELECT r2."id" FROM "Recipient" r2 WHERE r2."organizationId" = ${ctx.organizationId} AND ${match}))`;
  }
  const column = COLUMNS[field];
  const match = comparison(column, op, values, FIELDS[field].kind === "dateTime" ? "instant" : "text");
  return FIELDS[field].nullable ? sql`(${column} IS NOT NULL AND ${match})` : match;
}

/** The condition on the recipient row `r2`, narrowed by a text index for a substring (text-index.ts). */
function recipientMatch(field: "recipient.name" | "recipient.email", op: PositiveOp, values: Scalar[], ctx: SqlContext): Sql {
  if (op !== "contains" && op !== "startsWith" && op !== "endsWith") return comparison(RECIPIENT_COLUMNS[field], op, values, "text");
  const needle = values[0] as string;
  const exact = comparison(likeColumn(field, needle, ctx.engine, "r2"), op, values, "text");
  const candidates = substringCandidates(field, needle, ctx.engine, "r2", ctx.organizationId);
  return candidates ? sql`(${candidates} AND ${exact})` : exact;
}

/**
 * A query counting (up to `cap`) the candidate recipients of one substring condition every match must
 * meet (the filter itself or a child of its top-level AND), with that condition; null when there is none
 * an index can count. Few candidates mean the recipients-first lookup is quick and the windowed probe can
 * be skipped. SQLite: the candidates in the FTS5 indexes (trigrams, of every organization; characters
 * and pairs for shorter needles, of this organization; the exact LIKE decides later). PostgreSQL: the
 * organization's matching recipients, found through the trigram or character-pair GIN indexes.
 */
export function rareSubstringCount(node: FilterNode, ctx: SqlContext, cap: number): { condition: Condition; count: Sql } | null {
  const required = node.type === "and" ? node.children : [node];
  for (const child of required) {
    if (child.type !== "condition") continue;
    const condition = child.condition;
    const { field, op } = condition;
    if (field !== "recipient.name" && field !== "recipient.email") continue;
    if (op !== "contains" && op !== "startsWith" && op !== "endsWith") continue;
    const needle = condition.value;
    if (needle === "") continue;
    const count =
      ctx.engine === "sqlite"
        ? sqliteCandidateCount(ctx.organizationId, field, needle, cap)
        : sql`SELECT count(*) AS "n" FROM (SELECT 1 FROM "Recipient" r2 WHERE r2."organizationId" = ${ctx.organizationId} AND ${recipientMatch(field, op, [needle], ctx)} LIMIT ${cap}) x`;
    if (count) return { condition, count };
  }
  return null;
}

function comparison(column: Sql, op: PositiveOp, values: Scalar[], type: "text" | "instant"): Sql {
  if (type === "instant") return instantComparison(column, op, values as Instant[]);
  const texts = values as string[];
  switch (op) {
    case "equals":
      return sql`(${column} = ${texts[0]})`;
    case "in":
      return texts.length ? sql`(${column} IN (${join(texts)}))` : FALSE;
    case "contains":
      return like(column, `%${escapeLike(texts[0]!)}%`);
    case "startsWith":
      return like(column, `${escapeLike(texts[0]!)}%`);
    case "endsWith":
      return like(column, `%${escapeLike(texts[0]!)}`);
    case "gt":
      return sql`(${column} > ${texts[0]})`;
    case "gte":
      return sql`(${column} >= ${texts[0]})`;
    case "lt":
      return sql`(${column} < ${texts[0]})`;
    case "lte":
      return sql`(${column} <= ${texts[0]})`;
  }
}

function like(column: Sql, pattern: string): Sql {
  return sql`(${column} LIKE ${pattern} ESCAPE '\\')`;
}

/** `%`, `_` and the escape character itself match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function instantComparison(column: Sql, op: PositiveOp, values: Instant[]): Sql {
  if (op === "in") {
    // Only whole-millisecond instants can equal a stored timestamp.
    const exact = values.filter((v) => v.exact).map((v) => new Date(v.ms));
    return exact.length ? sql`(${column} IN (${join(exact)}))` : FALSE;
  }
  if (op !== "equals" && op !== "gt" && op !== "gte" && op !== "lt" && op !== "lte") {
    throw new Error(`operator ${op} does not apply to date-times`);
  }
  const bound = instantBounds(op, values[0]!);
  if (!bound) return FALSE;
  return sql`(${column} ${raw(bound.op)} ${new Date(bound.ms)})`;
}

/**
 * Status as reads show it on `today` (readStatus in lib/credentials/serialize.ts): a scheduled credential
 * whose date has come is issued, an issued one past its expiry date is expired.
 */
function statusIn(statuses: CredentialStatus[], today: string): Sql {
  const unique = [...new Set(statuses)];
  if (unique.length === 0) return FALSE;
  const issuedOrDue = sql`(c."status" = 'issued' OR (c."status" = 'scheduled' AND c."issueDate" <= ${today}))`;
  const parts = unique.map((status) => {
    switch (status) {
      case "draft":
        return sql`(c."status" = 'draft')`;
      case "scheduled":
        return sql`(c."status" = 'scheduled' AND c."issueDate" > ${today})`;
      case "issued":
        return sql`(${issuedOrDue} AND (c."expiryDate" IS NULL OR c."expiryDate" >= ${today}))`;
      case "expired":
        return sql`(${issuedOrDue} AND c."expiryDate" IS NOT NULL AND c."expiryDate" < ${today})`;
    }
  });
  return parts.length === 1 ? parts[0]! : sql`(${join(parts, " OR ")})`;
}
