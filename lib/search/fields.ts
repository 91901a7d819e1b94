// The searchable fields of a credential (docs/api.md, Search), their kinds and the operators each
// kind has. The one place that says what `filter` may contain.

export const FIELD_KINDS = {
  identifier: { describe: "an identifier", operators: ["equals", "not", "in", "notIn"] },
  text: { describe: "a text", operators: ["equals", "not", "in", "notIn", "contains", "startsWith", "endsWith"] },
  status: { describe: "a status", operators: ["equals", "not", "in", "notIn"] },
  date: { describe: "a date", operators: ["equals", "not", "in", "notIn", "gt", "gte", "lt", "lte"] },
  dateTime: { describe: "a date-time", operators: ["equals", "not", "in", "notIn", "gt", "gte", "lt", "lte"] },
} as const;

export type FieldKind = keyof typeof FIELD_KINDS;

export const FIELDS = {
  id: { kind: "identifier", nullable: false },
  publicId: { kind: "identifier", nullable: false },
  groupId: { kind: "identifier", nullable: false },
  status: { kind: "status", nullable: false },
  recipientId: { kind: "identifier", nullable: true },
  "recipient.name": { kind: "text", nullable: true },
  "recipient.email": { kind: "text", nullable: true },
  issueDate: { kind: "date", nullable: false },
  expiryDate: { kind: "date", nullable: true },
  createdAt: { kind: "dateTime", nullable: false },
  updatedAt: { kind: "dateTime", nullable: false },
  revokedAt: { kind: "dateTime", nullable: true },
} as const satisfies Record<string, { kind: FieldKind; nullable: boolean }>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

/** The fields that may also be written nested: `{"recipient": {"name": ...}}`. */
export const RECIPIENT_SUBFIELDS = { name: "recipient.name", email: "recipient.email" } as const satisfies Record<string, FieldName>;

export const OPERATORS = ["equals", "not", "in", "notIn", "contains", "startsWith", "endsWith", "gt", "gte", "lt", "lte"] as const;
export type Operator = (typeof OPERATORS)[number];

export function operatorsOf(field: FieldName): readonly Operator[] {
  return FIELD_KINDS[FIELDS[field].kind].operators;
}

export function isFieldName(key: string): key is FieldName {
  return Object.prototype.hasOwnProperty.call(FIELDS, key);
}

export function isOperator(key: string): key is Operator {
  return (OPERATORS as readonly string[]).includes(key);
}

/** Sort properties (docs/api.md, Search); `expiryDate` is the only nullable one. */
export const SORT_PROPERTIES = ["id", "createdAt", "updatedAt", "issueDate", "expiryDate"] as const;
export type SortProperty = (typeof SORT_PROPERTIES)[number];
export type SortOrder = "asc" | "desc";
export type Sort = { property: SortProperty; order: SortOrder };
export const DEFAULT_SORT: Sort = { property: "createdAt", order: "desc" };
