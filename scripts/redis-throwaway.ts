// A throw-away redis-server for tests and benchmarks (as scripts/pg-throwaway.sh is for PostgreSQL):
// Debian's `redis-server` on a free loopback port, nothing written to disk, killed with `stop()`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import net from "node:net";

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "redis-server";

export type ThrowawayRedis = { port: number; url: string; pid: number; stop(): Promise<void> };

/** Whether redis-server can be started here. */
export function redisServerInstalled(): boolean {
  return spawnSync(REDIS_SERVER, ["--version"]).status === 0;
}

export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts redis-server (on `port`, else a free one); resolves once it accepts connections. */
export async function startThrowawayRedis(port?: number): Promise<ThrowawayRedis> {
  const chosen = port ?? (await freeLoopbackPort());
  const child = spawn(REDIS_SERVER, ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.on("error", (error) =>
      reject(new Error(`could not start ${REDIS_SERVER} (Debian: apt-get install redis-server): ${error.message}`)),
    );
    child.on("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    });
  });
  child.removeAllListeners("exit");
  child.stdout.resume();
  return { port: chosen, url: `redis://127.0.0.1:${chosen}`, pid: child.pid!, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}
