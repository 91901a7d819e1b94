// A small closed-loop HTTP load generator: `connections` keep-alive connections, each sending its next
// request when the previous answer arrives, for a fixed time. Prints nothing; returns the figures.
import http from "node:http";

export type LoadResult = { requests: number; errors: number; seconds: number; rps: number; p50: number; p95: number; p99: number };

export async function runLoad(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  expectStatus?: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers: options.headers },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - started);
            if (res.statusCode !== (options.expectStatus ?? 200)) errors++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: pct(50), p95: pct(95), p99: pct(99) };
}
