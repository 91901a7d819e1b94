// Recognising a foreign-key violation, whichever engine and query path raised it: Prisma's client
// queries report P2003; raw queries through the driver adapters carry the engine's own code or text
// (PostgreSQL 23503, SQLite "FOREIGN KEY constraint failed").
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
    message?: unknown;
    cause?: unknown;
  };
  if (!e || typeof e !== "object") return false;
  if (e.code === "P2003" || e.code === "23503" || e.meta?.code === "23503") return true;
  const cause = e.meta?.driverAdapterError?.cause;
  if (cause?.kind === "ForeignKeyConstraintViolation" || cause?.originalCode === "23503") return true;
  if (typeof e.message === "string" && /FOREIGN KEY constraint failed|violates foreign key constraint/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isForeignKeyViolation(e.cause);
}

/**
 * Recognising a unique-constraint violation the same way: Prisma's P2002, PostgreSQL's 23505, SQLite's
 * "UNIQUE constraint failed".
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
    message?: unknown;
    cause?: unknown;
  };
  if (!e || typeof e !== "object") return false;
  if (e.code === "P2002" || e.code === "23505" || e.meta?.code === "23505") return true;
  const cause = e.meta?.driverAdapterError?.cause;
  if (cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === "23505") return true;
  if (typeof e.message === "string" && /UNIQUE constraint failed|violates unique constraint/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isUniqueViolation(e.cause);
}
