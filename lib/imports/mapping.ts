// Which CSV column feeds which field of a credential. The fields are those of the API's create body
// (recipient name and email, issue and expiry date, custom attributes); the mapping is a column index
// per field. A first mapping is guessed from the header names so that a typical export needs no
// changes; the person can correct it before any row is checked.
import { CUSTOM_ATTRIBUTE_KEY } from "../render/document";

export const FIXED_FIELDS = [
  { key: "recipient.name", label: "Recipient name", required: true },
  { key: "recipient.email", label: "Recipient email", required: false },
  { key: "issueDate", label: "Issue date", required: false },
  { key: "expiryDate", label: "Expiry date", required: false },
] as const;

export type FixedField = (typeof FIXED_FIELDS)[number]["key"];
/** A field of the create body that a column can feed: a fixed one or a custom attribute `custom.<tag>`. */
export type TargetField = FixedField | `custom.${string}`;
/** Field → index of the CSV column it is read from; a field that is absent is not imported. */
export type ColumnMapping = Partial<Record<TargetField, number>>;

export type MappingTarget = { key: TargetField; label: string; required: boolean };

/** Lower-case letters and digits only: "E-mail", "e_mail" and "Email " compare equal. */
function headerKey(header: string): string {
  return header
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

// Header names (as headerKey gives them) that exporters, LMSs and people commonly use for each field.
const SYNONYMS: Record<FixedField, string[]> = {
  "recipient.name": [
    "name",
    "fullname",
    "recipientname",
    "recipient",
    "recipientfullname",
    "participant",
    "participantname",
    "student",
    "studentname",
    "attendee",
    "attendeename",
    "learner",
    "learnername",
    "holder",
    "holdername",
    "nom",
    "nomcomplet",
  ],
  "recipient.email": [
    "email",
    "emailaddress",
    "mail",
    "mailaddress",
    "recipientemail",
    "recipientemailaddress",
    "participantemail",
    "studentemail",
    "attendeeemail",
    "learneremail",
    "emailadresse",
    "courriel",
  ],
  issueDate: [
    "issuedate",
    "issued",
    "issuedon",
    "issuedat",
    "dateissued",
    "dateofissue",
    "issuancedate",
    "date",
    "completiondate",
    "completedon",
    "awarded",
    "awardedon",
    "awarddate",
  ],
  expiryDate: [
    "expirydate",
    "expiry",
    "expires",
    "expireson",
    "expiresat",
    "expiration",
    "expirationdate",
    "validuntil",
    "validto",
    "validthrough",
    "dateofexpiry",
  ],
};

/** A custom attribute key for a header: `custom.grade` as written, or "Final Grade" → `custom.final_grade`. */
export function customKeyForHeader(header: string): `custom.${string}` | null {
  const trimmed = header.trim();
  if (CUSTOM_ATTRIBUTE_KEY.test(trimmed)) return trimmed as `custom.${string}`;
  const tag = trimmed
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, 64);
  return tag ? `custom.${tag}` : null;
}

/**
 * The fields a person can map, and a first guess at the mapping:
 * - each fixed field takes the first column whose header is one of its common names;
 * - a custom attribute the template uses (`templateCustomKeys`, e.g. [custom.grade] in a design) takes
 *   the column whose header matches its tag ("Grade" or "custom.grade");
 * - every other column becomes a custom attribute of its own name, so no data is dropped unnoticed
 *   (the person can set it to "not imported").
 */
export function guessMapping(
  header: string[],
  templateCustomKeys: readonly string[] = [],
): { targets: MappingTarget[]; mapping: ColumnMapping } {
  const mapping: ColumnMapping = {};
  const used = new Set<number>();
  const keys = header.map(headerKey);
  for (const field of FIXED_FIELDS) {
    for (const synonym of SYNONYMS[field.key]) {
      const column = keys.findIndex((k, i) => k === synonym && !used.has(i));
      if (column !== -1) {
        mapping[field.key] = column;
        used.add(column);
        break;
      }
    }
  }
  const custom: `custom.${string}`[] = [];
  for (const key of templateCustomKeys) {
    if (!CUSTOM_ATTRIBUTE_KEY.test(key) || custom.includes(key as `custom.${string}`)) continue;
    custom.push(key as `custom.${string}`);
    const tag = headerKey(key.slice("custom.".length));
    const column = header.findIndex((h, i) => !used.has(i) && (headerKey(h) === tag || headerKey(h) === headerKey(key)));
    if (column !== -1) {
      mapping[key as `custom.${string}`] = column;
      used.add(column);
    }
  }
  header.forEach((h, column) => {
    if (used.has(column)) return;
    const key = customKeyForHeader(h);
    if (!key || custom.includes(key)) return;
    custom.push(key);
    mapping[key] = column;
    used.add(column);
  });
  const targets: MappingTarget[] = [
    ...FIXED_FIELDS.map((f) => ({ key: f.key, label: f.label, required: f.required })),
    ...custom.map((key) => ({ key, label: key, required: false })),
  ];
  return { targets, mapping };
}

/** The column's name for messages and the mapping form: its header, or its position when it has none. */
export function columnName(header: readonly string[], column: number): string {
  const name = header[column]?.trim();
  return name ? name : `column ${column + 1}`;
}

/**
 * The API's create body for one record: the template, then each mapped cell. Cells are trimmed
 * (spreadsheet cells often carry stray spaces, which are never part of a name, address or date) and an
 * empty optional cell leaves its field out, as an empty form field does in the dashboard. The name is
 * always given, so an empty one gets the API's own "must not be empty".
 */
export function credentialBodyFor(fields: readonly string[], mapping: ColumnMapping, groupId: string): Record<string, unknown> {
  const cell = (field: TargetField) => {
    const column = mapping[field];
    return column === undefined ? "" : (fields[column] ?? "").trim();
  };
  const email = cell("recipient.email");
  const issueDate = cell("issueDate");
  const expiryDate = cell("expiryDate");
  const customAttributes: Record<string, string> = {};
  for (const field of Object.keys(mapping) as TargetField[]) {
    if (!field.startsWith("custom.")) continue;
    const value = cell(field);
    if (value !== "") customAttributes[field] = value;
  }
  return {
    groupId,
    recipient: { name: cell("recipient.name"), ...(email ? { email } : {}) },
    ...(issueDate ? { issueDate } : {}),
    ...(expiryDate ? { expiryDate } : {}),
    ...(Object.keys(customAttributes).length > 0 ? { customAttributes } : {}),
  };
}

/** Form fields named `map:<field>` whose value is a column index or "" (not imported). */
export const MAPPING_FIELD_PREFIX = "map:";

/**
 * The mapping a form posted, checked against the file's columns. Field names come back from the
 * browser, so they are checked like any input: a custom key must be a valid `custom.<tag>` and a column
 * must exist. Problems are keyed by field, to show next to its select.
 */
export function readMapping(
  entries: Iterable<[string, unknown]>,
  columnCount: number,
): { ok: true; mapping: ColumnMapping } | { ok: false; problems: { path: string; message: string }[] } {
  const mapping: ColumnMapping = {};
  const problems: { path: string; message: string }[] = [];
  const fixed = new Set<string>(FIXED_FIELDS.map((f) => f.key));
  for (const [name, value] of entries) {
    if (!name.startsWith(MAPPING_FIELD_PREFIX) || typeof value !== "string") continue;
    const field = name.slice(MAPPING_FIELD_PREFIX.length);
    if (!fixed.has(field) && !CUSTOM_ATTRIBUTE_KEY.test(field)) {
      problems.push({ path: field, message: "is not a field a column can be imported into" });
      continue;
    }
    if (value === "") continue;
    const column = /^\d+$/.test(value) ? Number(value) : -1;
    if (column < 0 || column >= columnCount) {
      problems.push({ path: field, message: "choose one of the file's columns" });
      continue;
    }
    mapping[field as TargetField] = column;
  }
  if (mapping["recipient.name"] === undefined && !problems.some((p) => p.path === "recipient.name")) {
    problems.push({ path: "recipient.name", message: "choose the column that holds the recipients' names" });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, mapping };
}
