// The search request body (docs/api.md, Search). `filter` goes through the search grammar's own
// parser (filter.ts), whose mistakes join zod's so one response names all of them.
import { z } from "zod";
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MESSAGE } from "../core/pagination";
import { FIELD_NAMES, SORT_PROPERTIES } from "./fields";
import { MATCH_ALL, parseFilter, type FilterNode } from "./filter";

/** The parsed filter, the JSON it was parsed from, and whether the request had one at all. */
export type SearchFilter = { tree: FilterNode; raw: unknown; given: boolean };

/** Cursors carry their search's filter when it is small; see service.ts. */
export const MAX_CURSOR_LENGTH = 128 * 1024;

const FILTER_DESCRIPTION = [
  "Conditions on the fields " +
    FIELD_NAMES.join(", ") +
    ", combined with `AND` / `OR` (arrays of filter objects) and `NOT` (a filter object, or an array of them: none may match); keys at one level combine with AND.",
  "A field's value is a literal (equals) or an object of operators: every field has `equals`, `not`, `in`, `notIn`; `recipient.name` and `recipient.email` also `contains`, `startsWith`, `endsWith` (case-insensitive); dates and date-times also `gt`, `gte`, `lt`, `lte`.",
  'Recipient fields may be nested: `{"recipient": {"email": "ada@example.com"}}`. Nullable fields (recipientId, recipient.name, recipient.email, expiryDate) take `null` with `equals` and `not`.',
].join(" ");

export const SearchCredentialsBody = z.strictObject({
  filter: z
    .unknown()
    .optional()
    .transform((raw, ctx): SearchFilter => {
      const parsed = parseFilter(raw);
      if (parsed.ok) return { tree: parsed.tree, raw: raw ?? null, given: raw !== undefined && raw !== null };
      for (const issue of parsed.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return { tree: MATCH_ALL, raw: null, given: false };
    })
    .meta({ description: FILTER_DESCRIPTION }),
  sort: z
    .strictObject({ property: z.enum(SORT_PROPERTIES), order: z.enum(["asc", "desc"]) })
    .nullable()
    .optional()
    .meta({ description: "Default `createdAt` `desc`. Ties break on `id`; credentials without the value (expiryDate) come last." }),
  cursor: z
    .string()
    .min(1, "must not be empty")
    .max(MAX_CURSOR_LENGTH, "is not a valid cursor")
    .nullable()
    .optional()
    .meta({ description: "`pagination.next` or `pagination.prev` of a previous page; filter and sort may be left out then." }),
  limit: z
    .number()
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(LIMIT_MAX, LIMIT_MESSAGE)
    .optional()
    .meta({ description: `Default ${LIMIT_DEFAULT}.` }),
});
export type SearchCredentialsInput = z.output<typeof SearchCredentialsBody>;
