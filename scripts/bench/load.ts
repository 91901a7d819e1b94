// A small closed-loop HTTP load generator: `connections` keep-alive connections, each sending its next
// request when the previous answer arrives, for a fixed time. Prints nothing; returns the figures.
import http from "node:http";

export type LoadResult = { requests: number; errors: number; seconds: number; rps: number; p50: number; p95: number; p99: number };

/** The p-th percentile (0..100) of latencies sorted ascending; NaN when there are none. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function runLoad(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  expectStatus?: number;
  method?: string;
  /** A request body per request (JSON text); the i-th request gets body(i). */
  body?: (i: number) => string;
  /** Stop after this many requests in all (instead of only at the deadline). */
  maxRequests?: number;
  /**
   * Called with each answer (the i-th request's status, body text and latency in ms); when given, bodies
   * are read instead of discarded. With one connection, request i+1 is built (body(i+1)) only after
   * onResponse(i) ran, so a request may depend on the previous answer (a cursor walk).
   */
  onResponse?: (i: number, status: number, body: string, ms: number) => void;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  let sent = 0;
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const i = sent++;
      const body = options.body?.(i);
      const headers = body
        ? { ...options.headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) }
        : options.headers;
      const req = http.request(
        {
          agent,
          method: options.method ?? "GET",
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          if (options.onResponse) res.on("data", (chunk: Buffer) => chunks.push(chunk));
          else res.resume();
          res.on("end", () => {
            const ms = performance.now() - started;
            latencies.push(ms);
            if (res.statusCode !== (options.expectStatus ?? 200)) errors++;
            options.onResponse?.(i, res.statusCode ?? 0, Buffer.concat(chunks).toString(), ms);
            resolve();
          });
        },
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline && (options.maxRequests === undefined || sent < options.maxRequests)) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => percentile(latencies, p);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: pct(50), p95: pct(95), p99: pct(99) };
}
