// One-line JSON logs. Callers pass fields they chose; never a request body, a token, an error's stack
// or a database message (they can carry user data or SQL).
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

function write(level: Level, event: string, fields?: Record<string, unknown>) {
  if (LEVELS[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (event: string, fields?: Record<string, unknown>) => write("debug", event, fields),
  info: (event: string, fields?: Record<string, unknown>) => write("info", event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => write("warn", event, fields),
  error: (event: string, fields?: Record<string, unknown>) => write("error", event, fields),
};

/** What may be logged about an unexpected error: its class and a code, never its message or stack. */
export function errorSummary(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorType: typeof error };
  const code = (error as { code?: unknown }).code;
  return { errorType: error.name || error.constructor.name, ...(typeof code === "string" ? { errorCode: code } : {}) };
}
