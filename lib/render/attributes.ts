// Placeholder substitution for design documents: `[recipient.name]` and friends become the
// credential's values, dates formatted in the document's locale and date style.
import { PLACEHOLDER, type DesignDocument, type DesignType } from "./document";

/**
 * Attribute values by name: the builtin ones (`recipient.name`, `credential.issueDate` as
 * `YYYY-MM-DD`, ...) and `custom.<tag>`. Missing, null and unknown attributes render as empty text.
 */
export type AttributeValues = Readonly<Record<string, string | null | undefined>>;

export type DateStyle = DesignDocument["dateStyle"];

const DATE_ATTRIBUTES = new Set(["credential.issueDate", "credential.expiryDate"]);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Formats a `YYYY-MM-DD` date (a full ISO timestamp is cut to its date) in a locale and style.
 * `iso` keeps `YYYY-MM-DD`. Formatting is in UTC so the calendar date never shifts with the server's
 * time zone. Text that isn't such a date is returned unchanged.
 */
export function formatDate(value: string, locale: string, dateStyle: DateStyle): string {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return value;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return value;
  if (dateStyle === "iso") return `${m[1]}-${m[2]}-${m[3]}`;
  const key = `${locale}|${dateStyle}`;
  let fmt = formatters.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(locale, { dateStyle, timeZone: "UTC" });
    formatters.set(key, fmt);
  }
  return fmt.format(date);
}

/** One attribute as it is displayed: dates formatted, line breaks and control characters flattened. */
export function displayValue(name: string, value: string | null | undefined, locale: string, dateStyle: DateStyle): string {
  if (value === null || value === undefined) return "";
  let text = String(value)
    .normalize("NFC")
    .replace(/[\r\n\t\u2028\u2029]+/g, " ")
    .replace(/[\u0000-\u001f\u007f]/g, "");
  if (DATE_ATTRIBUTES.has(name)) text = formatDate(text, locale, dateStyle);
  return text;
}

/** True when an attribute would display as nothing (missing, null, blank or unknown). */
export function isEmptyAttribute(values: AttributeValues, name: string): boolean {
  if (!Object.prototype.hasOwnProperty.call(values, name)) return true;
  const v = values[name];
  return v === null || v === undefined || String(v).trim() === "";
}

/**
 * Substitutes every `[name]` placeholder of a template in one pass (a value containing `[x.y]` is
 * not substituted again). Unknown or null attributes become empty text, never the raw tag.
 */
export function substitute(template: string, values: AttributeValues, options: { locale: string; dateStyle: DateStyle }): string {
  return template.replace(PLACEHOLDER, (_tag, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? displayValue(name, values[name], options.locale, options.dateStyle) : "",
  );
}

/**
 * The displayed text of each attribute the document uses, keyed by attribute name, plus the
 * resolved text of every text element (by element index). Useful to a preview or an editor.
 */
export function resolveAttributeValues(
  doc: DesignDocument,
  values: AttributeValues,
): { attributes: Record<string, string>; texts: Map<number, string> } {
  const attributes: Record<string, string> = {};
  const texts = new Map<number, string>();
  const opts = { locale: doc.locale, dateStyle: doc.dateStyle };
  doc.elements.forEach((el, i) => {
    if (el.type !== "text") return;
    for (const m of el.text.matchAll(PLACEHOLDER)) {
      const name = m[1]!;
      attributes[name] = Object.prototype.hasOwnProperty.call(values, name)
        ? displayValue(name, values[name], opts.locale, opts.dateStyle)
        : "";
    }
    texts.set(i, substitute(el.text, values, opts));
  });
  return { attributes, texts };
}

/** The fixed wallet URL sample previews encode in their QR code. */
export const SAMPLE_CREDENTIAL_URL = "https://wallet.example.com/credentials/00000000-0000-4000-8000-000000000000";

/**
 * Good-looking, fixed sample values for a design's preview (fixed so a preview changes only when the
 * design does). `custom.<tag>` attributes get their tag in title case when `attributes` lists them.
 */
export function sampleAttributeValues(
  type: DesignType,
  options: { organizationName?: string; walletUrl?: string; attributes?: readonly string[] } = {},
): Record<string, string | null> {
  const publicId = "00000000-0000-4000-8000-000000000000";
  const values: Record<string, string | null> = {
    "recipient.name": "Alex Morgan",
    "group.name": type === "badge" ? "Data Analysis Expert" : "Advanced Data Analysis",
    "organization.name": options.organizationName ?? "Northwind Institute",
    "credential.issueDate": "2026-01-15",
    "credential.expiryDate": "2028-01-15",
    "credential.id": "cred_01jy6v7s2k8m4q9t3w5x7z2c4b",
    "credential.publicId": publicId,
    "credential.url": options.walletUrl ? `${options.walletUrl.replace(/\/+$/, "")}/credentials/${publicId}` : SAMPLE_CREDENTIAL_URL,
  };
  for (const name of options.attributes ?? []) {
    if (name.startsWith("custom.") && !(name in values)) {
      values[name] = name
        .slice(7)
        .replace(/[_-]+/g, " ")
        .replace(/\b\w/g, (c) => c.toUpperCase());
    }
  }
  return values;
}
