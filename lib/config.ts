// Every environment variable the service reads, parsed and defaulted once. Defaults need nothing
// installed: SQLite under data/, previews under data/previews, mail as .eml files under data/mail.
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * A URL the Redis client accepts as it is: checked here so that a mistake stops the start with the
 * variable's name, rather than failing every rate-limited request later. The value is never echoed: it
 * may hold a password.
 */
function isRedisUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return false;
  }
  return (
    (url.protocol === "redis:" || url.protocol === "rediss:") &&
    url.hostname !== "" &&
    /^(\/\d*)?$/.test(url.pathname) &&
    url.search === "" &&
    url.hash === ""
  );
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: positiveInt(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .default("file:./data/dev.db")
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), "must be file:<path> or postgresql://..."),
  PUBLIC_URL: z.url().optional(),
  WALLET_URL: z.url().optional(),
  DATA_DIR: z.string().default("./data"),
  ALLOW_HTTP: flag,
  TRUST_PROXY: flag,
  PUBLIC_FACES_CACHE: z.enum(["on", "off"]).default("on"),
  CIS_BACKGROUND: z.enum(["on", "off", "only"]).default("on"),
  // Read by next.config.mjs (plain JavaScript, loaded by Next itself) as well: checked here, at start,
  // so that a misspelt value stops the start instead of leaving the preload on.
  CIS_PRELOAD_PAGES: z.enum(["on", "off"]).default("on"),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
  RATE_LIMIT_BURST: positiveInt(200),
  FREE_PLAN_MONTHLY_ISSUES: z.coerce.number().int().nonnegative().default(250),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Credentials <no-reply@localhost>"),
  MAIL_MAX_ATTEMPTS: positiveInt(8),
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().positive().default(30),
  MAIL_ATTEMPT_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(20),
  CLIENT_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE: flag,
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) =>
        list.every((s) => /^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*)$/.test(s)),
      "must be IP addresses (optionally with :port), separated by commas",
    ),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(5),
  WEBHOOK_RETRY_WINDOW_SECONDS: z.coerce.number().positive().default(86_400),
  REDIS_URL: z
    .string()
    .optional()
    .refine(
      (v) => !v?.trim() || isRedisUrl(v.trim()),
      "must be redis://[user:password@]host[:port][/db] or rediss://... (percent-encode a password's reserved characters)",
    ),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Config = Readonly<{
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string;
  databaseProvider: "sqlite" | "postgresql";
  /** Base URL used in every absolute link the service hands out (previews, wallet), no trailing slash. */
  publicUrl: string;
  walletUrl: string;
  dataDir: string;
  allowHttp: boolean;
  trustProxy: boolean;
  /**
   * Wallet pages, profiles and public documents are answered from this process's cache of what was
   * rendered for them (lib/http-server/public-faces.ts); `PUBLIC_FACES_CACHE=off` renders every one
   * afresh (to compare, or to rule the cache out).
   */
  publicFacesCache: boolean;
  /** `off`: a web-only process; `only`: a worker-only one (docs/operating.md, Several processes). */
  background: "on" | "off" | "only";
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  freePlanMonthlyIssues: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Delivery attempts before an email is given up on (status `failed`). */
  mailMaxAttempts: number;
  /** Wait after the first failed attempt; doubles each time, at most an hour. */
  mailRetryBaseSeconds: number;
  /** Longest a delivery attempt may take, and the SMTP connection, greeting and each reply within it. */
  mailAttemptTimeoutSeconds: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /**
   * How long a client has to send a whole request, headers and body, once it starts: a connection that
   * takes longer (a body that never arrives, headers sent a byte at a time) is dropped. 30 s; shorter in tests.
   */
  clientTimeoutMs: number;
  /** Where rate limits are kept across processes instead of the database; null: not used. */
  redisUrl: string | null;
  /**
   * Outgoing requests (webhook deliveries, domain checks) may reach private, link-local and loopback
   * addresses. Off in production: a test switch, so a local receiver can stand in for the internet.
   */
  allowPrivateNetworks: boolean;
  /** The resolvers asked for domain checks' DNS TXT records ("ip", "ip:port", "[ipv6]:port"); empty: the system's. */
  dnsServers: readonly string[];
  /** Wait after a webhook delivery's first failed attempt; doubles each time, at most 4 hours. */
  webhookRetryBaseSeconds: number;
  /**
   * How long a webhook delivery is retried (from its event), and how long an endpoint may fail without
   * a single success before it is disabled. 24 hours; shorter only in tests.
   */
  webhookRetryWindowSeconds: number;
  /** Signs cursors and sessions. Unset: generated once and kept in DATA_DIR/app-secret. */
  appSecret: string | null;
  /** Dashboard sign-in with these providers, each only when both its id and secret are set. */
  oauth: { github: { clientId: string; clientSecret: string } | null; google: { clientId: string; clientSecret: string } | null };
}>;

/** Names the variables that are wrong and why, never their values (a URL can hold a password). */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseProvider: e.DATABASE_URL.startsWith("file:") ? "sqlite" : "postgresql",
    publicUrl,
    walletUrl: (e.WALLET_URL ?? publicUrl).replace(/\/+$/, ""),
    dataDir: e.DATA_DIR,
    allowHttp: e.ALLOW_HTTP,
    trustProxy: e.TRUST_PROXY,
    publicFacesCache: e.PUBLIC_FACES_CACHE === "on",
    background: e.CIS_BACKGROUND,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    freePlanMonthlyIssues: e.FREE_PLAN_MONTHLY_ISSUES,
    smtpUrl: e.SMTP_URL?.trim() ? e.SMTP_URL.trim() : null,
    mailFrom: e.MAIL_FROM,
    mailMaxAttempts: e.MAIL_MAX_ATTEMPTS,
    mailRetryBaseSeconds: e.MAIL_RETRY_BASE_SECONDS,
    mailAttemptTimeoutSeconds: e.MAIL_ATTEMPT_TIMEOUT_SECONDS,
    logLevel: e.LOG_LEVEL,
    clientTimeoutMs: Math.round(e.CLIENT_TIMEOUT_SECONDS * 1000),
    redisUrl: e.REDIS_URL?.trim() ? e.REDIS_URL.trim() : null,
    allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE,
    dnsServers: Object.freeze(e.DNS_SERVERS),
    webhookRetryBaseSeconds: e.WEBHOOK_RETRY_BASE_SECONDS,
    webhookRetryWindowSeconds: e.WEBHOOK_RETRY_WINDOW_SECONDS,
    appSecret: e.APP_SECRET ?? null,
    oauth: {
      github: e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET ? { clientId: e.GITHUB_CLIENT_ID, clientSecret: e.GITHUB_CLIENT_SECRET } : null,
      google: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET } : null,
    },
  } as const);
}

let cached: Config | undefined;

/** The process's configuration, parsed on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
