// The secret that signs cursors (and, later, dashboard sessions). APP_SECRET wins; otherwise one is
// generated on first use and kept in DATA_DIR/app-secret, so every process sharing the data directory
// (server, CLI, a restart) agrees on it. Deployments with several hosts must set APP_SECRET.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "./config";

let cached: string | undefined;

export function appSecret(): string {
  if (cached) return cached;
  const fromEnv = config().appSecret;
  if (fromEnv) return (cached = fromEnv);
  const file = path.join(config().dataDir, "app-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const fresh = randomBytes(32).toString("base64url");
    try {
      // "wx": if another process wrote it first, keep theirs.
      writeFileSync(file, fresh, { flag: "wx", mode: 0o600 });
    } catch {
      /* written concurrently; read it below */
    }
    cached = readFileSync(file, "utf8").trim();
  }
  return cached;
}
