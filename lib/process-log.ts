// Makes every line the server process writes a lib/log JSON line. Next writes its own errors
// (`⨯ TypeError: ...` with a stack), warnings and uncaught exceptions through console.*, and Prisma
// its `prisma:error` dumps (driver messages, SQL) the same way; Node prints its warnings itself. They
// are all routed through lib/log here, once, when the server starts (scripts/start.ts).
//
// What survives from such a call: an error's class and code (errorSummary) and Next's error digest,
// never its message or stack, which can carry SQL or user data; of plain text, its first line,
// shortened, up to an error it quotes ("Failed: TypeError: ..." keeps "Failed: TypeError"), unless it is a
// Prisma log line (which quotes the database's messages: only its tag is kept).
import { format } from "node:util";
import { errorSummary, log } from "./log";

type Level = "debug" | "info" | "warn" | "error";

const MAX_TEXT = 200;
// ANSI colour codes (Next and Prisma colour their prefixes on a terminal).
const ANSI = /\u001b\[[0-9;]*m/g;
// "<anything> TypeError: <message>": the message is what could quote SQL or user data.
const QUOTED_ERROR = /^(.*?\b(?:[A-Z][A-Za-z]*)?(?:Error|Exception))\b:.*$/;
const PRISMA_TAG = /^(prisma:[a-z]+)\b.*$/;

/** The first line of a console call's text, with anything that could quote an error's message removed. */
export function safeText(args: unknown[]): string | undefined {
  const text = args
    .filter((a) => typeof a === "string" || typeof a === "number" || typeof a === "boolean")
    .map((a) => format("%s", a))
    .join(" ")
    .replace(ANSI, "");
  const firstLine = text
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
  if (!firstLine) return undefined;
  const prisma = PRISMA_TAG.exec(firstLine);
  if (prisma) return prisma[1];
  const line = QUOTED_ERROR.exec(firstLine)?.[1] ?? firstLine;
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line;
}

/** The lib/log fields for one console call's arguments. */
export function consoleFields(args: unknown[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const text = safeText(args);
  if (text) fields.text = text;
  const error = args.find((a) => a instanceof Error);
  if (error) {
    Object.assign(fields, errorSummary(error));
    // Next tags errors it hides from the browser with a digest the browser shows: the way to match
    // a user's report to this line.
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === "string") fields.digest = digest;
  }
  return fields;
}

const CONSOLE_LEVELS: Record<"debug" | "log" | "info" | "warn" | "error" | "trace", Level> = {
  debug: "debug",
  log: "info",
  info: "info",
  warn: "warn",
  error: "error",
  trace: "debug",
};

/**
 * Node's error for a request whose client left, or was dropped for being too slow (server.ts), before its
 * body arrived: ECONNRESET with the message "aborted", raised on the request stream. Next prints it as an
 * error where it reads a body itself (server actions), but it is the client's doing, not a fault here.
 */
export function isClientAbort(value: unknown): boolean {
  return value instanceof Error && (value as NodeJS.ErrnoException).code === "ECONNRESET" && value.message === "aborted";
}

/** The lib/log line for one console call at `level`, or null for nothing worth a line. */
export function consoleEntry(level: Level, args: unknown[]): { level: Level; event: string; fields: Record<string, unknown> } | null {
  const fields = consoleFields(args);
  // Next prints an empty console.log() between its banner lines.
  if (Object.keys(fields).length === 0) return null;
  if (args.some(isClientAbort)) return { level: "info", event: "request_abandoned", fields };
  return { level, event: "console", fields };
}

const installed = globalThis as unknown as { __cisProcessLog?: boolean };

export function routeProcessOutputToLog(): void {
  if (installed.__cisProcessLog) return;
  installed.__cisProcessLog = true;
  for (const [method, level] of Object.entries(CONSOLE_LEVELS) as [keyof typeof CONSOLE_LEVELS, Level][]) {
    console[method] = (...args: unknown[]) => {
      const entry = consoleEntry(level, args);
      if (entry) log[entry.level](entry.event, entry.fields);
    };
  }
  // Node prints warnings (deprecations, listener leaks) through its own default listener.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => log.warn("node_warning", errorSummary(warning)));
  // Before Next starts (migrations, seeding) an uncaught exception would make Node print its stack
  // and exit; this logs it instead and exits the same way. Once Next runs, its own handler logs such
  // an exception (through console.error, so routed here) and keeps serving: this one stands aside.
  process.on("uncaughtException", (error) => {
    if (process.listenerCount("uncaughtException") > 1) return;
    log.error("uncaught_exception", errorSummary(error));
    process.exit(1);
  });
}
