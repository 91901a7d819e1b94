// What `GET /healthz` reports to load balancers and monitoring: whether this process can reach the
// database, and whether background work keeps up (how long the oldest due email has been waiting).
// Computed at most once a second per process, so a load balancer polling many times a second costs
// one small query, not one per poll.
import { redisClient } from "../rate-limit/redis-rate-limit";
import { config } from "../config";
import { db } from "../db";
import { errorSummary, log } from "../log";

export type Health = {
  /**
   * `ok`; `degraded` while due email waits longer than WORKER_LAG_WARN_SECONDS or REDIS_URL's Redis
   * does not answer (rate limits then hold per process only); `unavailable` without a database.
   */
  status: "ok" | "degraded" | "unavailable";
  database: { status: "ok" | "unavailable"; latencyMs: number | null };
  /** Only with REDIS_URL: whether this process reaches the Redis that keeps the rate limits. */
  redis?: { status: "ok" | "unavailable"; latencyMs: number | null };
  /** Seconds the oldest email due for delivery has been waiting (0: none waiting). Null without a database. */
  mailLagSeconds: number | null;
  checkedAt: string;
};

/** An email due longer than this means no worker is delivering (or it cannot keep up). */
const WORKER_LAG_WARN_SECONDS = 120;
const CACHE_MS = 1000;

let cached: { at: number; health: Promise<Health> } | null = null;

/** A rate-limit take that failed this recently makes Redis count as unavailable. */
const TAKES_FAILING_MS = 60_000;

async function measureRedis(url: string): Promise<NonNullable<Health["redis"]>> {
  const started = performance.now();
  try {
    const client = redisClient(url);
    if (client.status !== "ready") await client.cisFirstConnection; // a process's first check: not "unavailable" while it connects
    await client.ping();
    // PING can answer while takes fail (a read-only replica after a failover, out of memory): then the
    // limits are per process, which is what this check must say.
    const takesFailing = Date.now() - client.cisLastFailureAt < TAKES_FAILING_MS;
    return { status: takesFailing ? "unavailable" : "ok", latencyMs: Math.round(performance.now() - started) };
  } catch {
    // The client logs the outage itself (redis_unavailable), once.
    return { status: "unavailable", latencyMs: null };
  }
}

async function measure(): Promise<Health> {
  const { redisUrl } = config();
  const [health, redis] = await Promise.all([measureDatabase(), redisUrl ? measureRedis(redisUrl) : undefined]);
  if (!redis) return health;
  return { ...health, status: health.status === "ok" && redis.status !== "ok" ? "degraded" : health.status, redis };
}

async function measureDatabase(): Promise<Health> {
  const started = performance.now();
  const checkedAt = new Date();
  try {
    const oldest = await db().emailOutbox.findFirst({
      where: { status: "queued", nextAttemptAt: { lte: checkedAt } },
      orderBy: { nextAttemptAt: "asc" },
      select: { nextAttemptAt: true },
    });
    const latencyMs = Math.round(performance.now() - started);
    const mailLagSeconds = oldest ? Math.max(0, Math.round((checkedAt.getTime() - oldest.nextAttemptAt.getTime()) / 1000)) : 0;
    return {
      status: mailLagSeconds > WORKER_LAG_WARN_SECONDS ? "degraded" : "ok",
      database: { status: "ok", latencyMs },
      mailLagSeconds,
      checkedAt: checkedAt.toISOString(),
    };
  } catch (error) {
    log.warn("health_database_unavailable", errorSummary(error));
    return {
      status: "unavailable",
      database: { status: "unavailable", latencyMs: null },
      mailLagSeconds: null,
      checkedAt: checkedAt.toISOString(),
    };
  }
}

export function currentHealth(now = Date.now()): Promise<Health> {
  if (!cached || now - cached.at >= CACHE_MS) cached = { at: now, health: measure() };
  return cached.health;
}
