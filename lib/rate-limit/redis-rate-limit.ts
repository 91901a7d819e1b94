// Rate limits kept in Redis when REDIS_URL is set (limits hold across processes: docs/operating.md, Redis). One
// Lua script per take refills and takes from a bucket atomically on Redis's own clock, so any number
// of processes count every request exactly once, with one round trip and no load on the database.
// Buckets expire once they would be full again: an absent key is a full bucket.
//
// If Redis cannot be reached, each process limits on its own (in memory) until it can again: better
// than refusing every request or letting every one through. The outage is logged once, not per request.
import { Redis } from "ioredis";
import type { Buckets, RateLimitState } from "./token-buckets";
import { MemoryBuckets } from "./token-buckets";
import { errorSummary, log } from "../log";
import { processSingleton } from "../core/process-singleton";

/** Every key this service writes starts with this, so a shared Redis can hold other applications' keys too. */
export const REDIS_KEY_PREFIX = "cis:ratelimit:";

// KEYS[1]: the bucket. ARGV: refill per second, burst, 1 to take a token or 0 to only look.
// Returns {granted (0|1), tokens left as a string}: Lua numbers become integers in a Redis reply.
const TAKE_SCRIPT = `
local perSecond = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local take = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1])
if tokens == nil then
  tokens = burst
else
  tokens = math.min(burst, tokens + math.max(0, now - tonumber(saved[2])) * perSecond)
end
local granted = 0
if take == 1 then
  if tokens >= 1 then
    tokens = tokens - 1
    granted = 1
  end
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perSecond * 1000) + 1000)
end
return {granted, tostring(tokens)}
`;

export type TakingRedis = Redis & {
  cisTakeToken(key: string, perSecond: number, burst: number, take: 0 | 1): Promise<[number, string]>;
  /** Settles when the first connection is ready, or FIRST_CONNECT_WAIT_MS after it was started. */
  cisFirstConnection: Promise<void>;
  /** Until when takes skip Redis (after one failed): see BREAK_MS. */
  cisSkipUntil: number;
  /** When a take last failed (0: never), for /healthz: PING can answer while takes fail (a read-only replica, OOM). */
  cisLastFailureAt: number;
  /** When a fallback to memory was last logged. */
  cisLastWarningAt: number;
};

/**
 * After a take fails, takes skip Redis for this long (each process limits on its own meanwhile). A Redis
 * that stays connected but stops answering would otherwise cost every request a command timeout.
 */
const BREAK_MS = 5_000;
/** A take's round trip on a healthy Redis is well under a millisecond; this much means it is in trouble. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * How long requests wait for the process's first connection to Redis. Without it, the requests of a
 * process's first milliseconds (the connection is made on first use) would each be limited in this
 * process's memory alone, letting up to a burst per process through. Later outages do not wait: the
 * first connection's wait is over by then.
 */
const FIRST_CONNECT_WAIT_MS = 2_000;

/** Glob characters of SCAN's MATCH, escaped so a prefix matches only itself. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** The process's connection to REDIS_URL, made on first use. */
export function redisClient(url: string): TakingRedis {
  return processSingleton("redis.client", () => connectRedis(url));
}

/** A new connection to `url` that can take tokens (tests make several, as several processes would). */
export function connectRedis(url: string): TakingRedis {
  const client = new Redis(url, {
    // A command while disconnected fails at once (the caller falls back) rather than waiting in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // A take that timed out was already answered from memory: it must not be replayed after a reconnect.
    autoResendUnfulfilledCommands: false,
    connectTimeout: 5_000,
    // Reconnect with growing waits, at most 5 s apart, for as long as it takes.
    retryStrategy: (times) => Math.min(5_000, 100 * 2 ** Math.min(times, 6)),
  }) as TakingRedis;
  client.defineCommand("cisTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
  client.cisSkipUntil = 0;
  client.cisLastFailureAt = 0;
  client.cisLastWarningAt = 0;
  client.cisFirstConnection = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONNECT_WAIT_MS);
    timer.unref();
    client.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  let down = false;
  // The error carries no URL (and so no password): only its kind and code are logged.
  client.on("error", (error: unknown) => {
    if (down) return;
    down = true;
    log.warn("redis_unavailable", errorSummary(error));
  });
  client.on("ready", () => {
    if (down) log.info("redis_available", {});
    down = false;
    client.cisSkipUntil = 0; // connected again: the next take tries Redis
  });
  return client;
}

/** A take that fell back to this process's memory: said at most once a minute per connection, not per request. */
function warnFallback(client: TakingRedis, error: unknown): void {
  const now = Date.now();
  if (now - client.cisLastWarningAt < 60_000) return;
  client.cisLastWarningAt = now;
  log.warn("rate_limit_store_unavailable", { store: "redis", ...errorSummary(error) });
}

/** Exact token buckets in Redis, under `namespace`; the per-process fallback while Redis is away. */
export class RedisBuckets implements Buckets {
  readonly #fallback: MemoryBuckets;
  constructor(
    readonly client: TakingRedis,
    readonly perSecond: number,
    readonly burst: number,
    readonly namespace: string,
  ) {
    this.#fallback = new MemoryBuckets(perSecond, burst);
  }

  #key(key: string): string {
    return REDIS_KEY_PREFIX + this.namespace + key;
  }

  /** A take or a look, once the first connection had its chance; throws at once while takes skip Redis. */
  async #takeToken(key: string, take: 0 | 1): Promise<[number, string]> {
    if (this.client.status !== "ready") await this.client.cisFirstConnection;
    if (Date.now() < this.client.cisSkipUntil) throw new Error("Redis skipped after a failed take");
    try {
      return await this.client.cisTakeToken(this.#key(key), this.perSecond, this.burst, take);
    } catch (error) {
      this.client.cisLastFailureAt = Date.now();
      this.client.cisSkipUntil = Date.now() + BREAK_MS;
      throw error;
    }
  }

  async take(key: string): Promise<RateLimitState> {
    let granted: number;
    let tokens: number;
    try {
      const [g, left] = await this.#takeToken(key, 1);
      granted = Number(g);
      tokens = Number(left);
    } catch (error) {
      warnFallback(this.client, error);
      return this.#fallback.take(key);
    }
    const allowed = granted === 1;
    const remaining = Math.max(0, Math.floor(tokens));
    return {
      allowed,
      limit: this.burst,
      remaining,
      resetSeconds: Math.ceil((this.burst - tokens) / this.perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.perSecond)),
    };
  }

  async hasToken(key: string): Promise<boolean> {
    try {
      const [, left] = await this.#takeToken(key, 0);
      return Number(left) >= 1;
    } catch (error) {
      warnFallback(this.client, error);
      return this.#fallback.hasToken(key);
    }
  }

  async forget(key: string): Promise<void> {
    await this.#fallback.forget(key);
    await this.client.del(this.#key(key)).catch((error: unknown) => log.warn("redis_forget_failed", errorSummary(error)));
  }

  async forgetPrefix(prefix: string): Promise<void> {
    await this.#fallback.forgetPrefix(prefix);
    try {
      const match = `${globEscape(this.#key(prefix))}*`;
      let cursor = "0";
      do {
        const [next, keys] = await this.client.scan(cursor, "MATCH", match, "COUNT", 500);
        if (keys.length > 0) await this.client.del(...keys);
        cursor = next;
      } while (cursor !== "0");
    } catch (error) {
      log.warn("redis_forget_failed", errorSummary(error));
    }
  }
}
