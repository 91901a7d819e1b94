// The callers behind API tokens, kept per process on PostgreSQL so that a /v1 request makes one round
// trip to the database instead of two (bench:api: the token lookup was half of a hot read's statements,
// and on PostgreSQL each statement is a socket write and a wake-up of the server).
//
// Safe across processes because the database says when to forget: triggers on "ApiToken" and
// "Organization" (migration 20261127070000_caller_change_notices) send `NOTIFY cis_callers_changed` when a
// token is revoked or deleted or an organization's slug, name, plan or quota changes, whoever changes it
// (the CLI, the dashboard, another web process). Every process LISTENs on a connection of its own and
// forgets everything it kept on each notice. PostgreSQL sends the notice when the change commits, so a
// revocation is seen within the notice's delivery, a fraction of a millisecond on one host.
//
// The cache is used only while notices are known to arrive: the process sends itself a probe through
// its ordinary pool when it starts listening and every 15 s, and a probe that does not come back
// within 5 s counts as a lost connection. That catches a connection that died
// silently, and a pooler in transaction mode, which accepts LISTEN but does not pass notices on: the
// cache then stays off and every request reads the database, as it does before the first probe and
// while reconnecting (from an empty cache: the notices of the gap are lost). Unknown and revoked tokens
// are never kept, so a new token needs no notice. SQLite has no notices and needs no cache: its lookup
// is a prepared statement on a local file (8–14 µs), and the CLI writes to the same file from another
// process.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { errorSummary, log } from "../log";

export const CALLER_CHANGE_CHANNEL = "cis_callers_changed";
/** Tokens kept per process; the oldest kept is forgotten first. */
const MAX_ENTRIES = 10_000;
/** Wait before listening again after the connection failed. */
const RECONNECT_MS = 1_000;
/** How often notices are checked, and how long a probe may take to come back. */
const PROBE_TIMING = { everyMs: 15_000, timeoutMs: 5_000 };
/** Probes carry this prefix and a process's own id; the triggers' notices carry no payload. */
const PROBE_PREFIX = "probe:";

export type CachedCaller<T> = { caller: T; lastUsedAt: number };
/** Sends one notice on `channel` with `payload` through a connection other than the listener's. */
export type SendNotice = (channel: string, payload: string) => Promise<void>;

export class CallerCache<T> {
  private readonly entries = new Map<string, CachedCaller<T>>();
  /** Counts forgets: a lookup that began before one must not keep what it read. */
  private generation = 0;
  private listening = false;
  private client: pg.Client | null = null;
  private stopped = false;
  /** One warning per outage, not one per failed reconnect. */
  private warned = false;
  private readonly probeId = `${PROBE_PREFIX}${randomUUID()}`;
  /** Called when this process's probe comes back. */
  private probeReturned: (() => void) | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly sendNotice: SendNotice,
    private readonly probeTiming = PROBE_TIMING,
  ) {
    void this.listen();
  }

  /** The kept caller behind this token hash, or undefined (then read it and `keep` it). */
  get(tokenHash: string): CachedCaller<T> | undefined {
    return this.listening ? this.entries.get(tokenHash) : undefined;
  }

  /** A mark to pass to `keep`, taken before the database is read. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a caller read from the database, unless something was forgotten since `mark` was taken. */
  keep(tokenHash: string, entry: CachedCaller<T>, mark: number): void {
    if (!this.listening || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, entry);
  }

  /** Whether lookups are answered from the cache (notices are known to arrive). */
  get active(): boolean {
    return this.listening;
  }

  stop(): void {
    this.stopped = true;
    this.listening = false;
    this.forget();
    void this.client?.end().catch(() => undefined);
  }

  private forget(): void {
    this.generation++;
    this.entries.clear();
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    this.client = client;
    let lost = false;
    let probeTimer: NodeJS.Timeout | undefined;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      clearTimeout(probeTimer);
      const wasListening = this.listening;
      this.listening = false;
      this.forget();
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      if (wasListening || !this.warned) {
        this.warned = true;
        log.warn("caller_cache_listener_lost", { ...(error ? errorSummary(error) : { errorType: "ConnectionEnded" }), retryInMs: RECONNECT_MS });
      }
      setTimeout(() => void this.listen(), RECONNECT_MS).unref();
    };
    client.on("notification", (notice) => {
      if (!notice.payload?.startsWith(PROBE_PREFIX)) this.forget();
      else if (notice.payload === this.probeId) this.probeReturned?.();
    });
    client.on("error", onLost);
    client.on("end", () => onLost());
    const probe = async (): Promise<void> => {
      try {
        await this.probe();
      } catch (error) {
        onLost(error as Error);
        return;
      }
      if (lost || this.stopped) return;
      if (!this.listening) {
        this.forget();
        this.listening = true;
        this.warned = false;
      }
      probeTimer = setTimeout(() => void probe(), this.probeTiming.everyMs).unref();
    };
    try {
      await client.connect();
      await client.query(`LISTEN ${CALLER_CHANGE_CHANNEL}`);
      // This connection must not keep a finished process (the CLI) alive.
      (client as unknown as { connection: { stream: { unref?: () => void } } }).connection.stream.unref?.();
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (!lost) await probe();
  }

  /** Sends this process's probe and waits for it to come back on the listening connection. */
  private probe(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.probeReturned = null;
        reject(new ProbeLost());
      }, this.probeTiming.timeoutMs).unref();
      this.probeReturned = () => {
        clearTimeout(timer);
        this.probeReturned = null;
        resolve();
      };
      this.sendNotice(CALLER_CHANGE_CHANNEL, this.probeId).catch((error: unknown) => {
        clearTimeout(timer);
        this.probeReturned = null;
        reject(error instanceof Error ? error : new ProbeLost());
      });
    });
  }
}

/** A probe sent on the channel did not come back in time: notices are not reaching this process. */
class ProbeLost extends Error {
  override name = "CallerNoticeProbeLost";
}
