// Starts the built app (npm start) on a fresh data directory for a benchmark and returns its URL and
// the demo token it printed.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type BenchServer = { url: string; token: string; stop: () => void; process: ChildProcess };

export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cis-bench-"));
  const port = 3900 + Math.floor(Math.random() * 90);
  // The server runs in this child itself (tsx as a loader, not a wrapper process), so stopping the child stops it.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${dataDir}/bench.db`,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_SECOND: "1000000",
      RATE_LIMIT_BURST: "1000000",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  const token = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 300_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/cis_[0-9A-Za-z]{40}/);
      if (match && output.includes("ready at")) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, token, process: child, stop: () => child.kill("SIGTERM") };
}
