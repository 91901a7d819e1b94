// One-line JSON logs. Callers pass fields they chose; never a request body, a token, an error's stack
// or a database message (they can carry user data or SQL). The one token ever written is the demo
// organization's, announced once on the first start of an empty database (scripts/start.ts), as the
// README promises. Everything else the process prints is routed here too (lib/process-log.ts).
import { config } from "./config";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

function threshold(): number {
  try {
    return LEVELS[config().logLevel];
  } catch {
    return LEVELS.info; // an invalid configuration is itself reported through this log
  }
}

function write(level: Level, event: string, fields?: Record<string, unknown>, always = false) {
  const min = threshold();
  if (min === LEVELS.silent || (!always && LEVELS[level] < min)) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (event: string, fields?: Record<string, unknown>) => write("debug", event, fields),
  info: (event: string, fields?: Record<string, unknown>) => write("info", event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => write("warn", event, fields),
  error: (event: string, fields?: Record<string, unknown>) => write("error", event, fields),
  /** What a person starting the server must see whatever LOG_LEVEL says, short of `silent` (where it
   *  serves, the demo token shown once): an info line that the level does not hold back. */
  announce: (event: string, fields?: Record<string, unknown>) => write("info", event, fields, true),
};

/** What may be logged about an unexpected error: its class and a code, never its message or stack. */
export function errorSummary(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorType: typeof error };
  const code = (error as { code?: unknown }).code;
  return { errorType: error.name || error.constructor.name, ...(typeof code === "string" ? { errorCode: code } : {}) };
}
