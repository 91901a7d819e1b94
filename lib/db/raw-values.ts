// Column values from hand-written SQL ($queryRaw) differ by engine: SQLite returns timestamps as ISO
// text, booleans as 0/1 and integers as bigint; PostgreSQL returns Date, boolean and number. These
// turn either into the types the Prisma client would have returned.
export function rawDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "string" || typeof value === "number") return new Date(value);
  throw new TypeError(`not a timestamp: ${typeof value}`);
}

export function rawNullableDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : rawDate(value);
}

export function rawBoolean(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number" || typeof value === "bigint") return Number(value) !== 0;
  if (typeof value === "string") return value === "1" || value === "true";
  throw new TypeError(`not a boolean: ${typeof value}`);
}

export function rawNullableInt(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
