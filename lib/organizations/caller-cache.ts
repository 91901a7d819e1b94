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
// Kept callers are answered only while notices are known to arrive. Every second the process sends
// itself a probe through its ordinary pool; PostgreSQL delivers notices in the order their transactions
// committed, so a probe that came back proves every notice committed before it was sent has arrived.
// The cache answers only within FRESH_MS of the sending of the last probe that came back: a connection
// that dies silently, a pool too busy to send the probe, or a pooler in transaction mode (which accepts
// LISTEN but passes no notice on) turns it off within that time, and every request reads the database.
// A probe sent and not back within PROBE_TIMEOUT_MS, or a connection error, replaces the connection
// (from an empty cache: the notices of the gap are lost). Unknown and revoked tokens are never kept,
// so a new token needs no notice. SQLite has no notices and needs no cache: its lookup is a prepared
// statement on a local file (8–14 µs), and the CLI writes to the same file from another process.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { errorSummary, log } from "../log";

export const CALLER_CHANGE_CHANNEL = "cis_callers_changed";
/** Tokens kept per process; the oldest kept is forgotten first. */
const MAX_ENTRIES = 10_000;
/** Wait before listening again after the connection failed. */
const RECONNECT_MS = 1_000;
/**
 * How often notices are checked, how long a sent probe may take to come back before the connection
 * is replaced, and for how long after a returned probe was sent the cache answers: the longest a
 * change can go unseen when notices silently stop arriving.
 */
export type ProbeTiming = { everyMs: number; timeoutMs: number; freshMs: number };
const PROBE_TIMING: ProbeTiming = { everyMs: 1_000, timeoutMs: 1_000, freshMs: 2_000 };
/** Probes carry this prefix; the triggers' notices carry no payload. */
const PROBE_PREFIX = "probe:";

export type CachedCaller<T> = { caller: T; lastUsedAt: number };
/** Sends one notice on `channel` with `payload` through a connection other than the listener's. */
export type SendNotice = (channel: string, payload: string) => Promise<void>;

export class CallerCache<T> {
  private readonly entries = new Map<string, CachedCaller<T>>();
  /** Counts forgets: a lookup that began before one must not keep what it read. */
  private generation = 0;
  /** The connection attempt whose probes count; a lost one's late probes change nothing. */
  private attempt = 0;
  /** When the last probe that came back was sent, on the monotonic clock (0: none on the current connection). */
  private confirmedAt = 0;
  private client: pg.Client | null = null;
  private stopped = false;
  /** One warning per outage, not one per failed reconnect. */
  private warned = false;
  private readonly processId = randomUUID();

  constructor(
    private readonly databaseUrl: string,
    private readonly sendNotice: SendNotice,
    private readonly timing: ProbeTiming = PROBE_TIMING,
  ) {
    void this.listen();
  }

  /** The kept caller behind this token hash, or undefined (then read it and `keep` it). */
  get(tokenHash: string): CachedCaller<T> | undefined {
    return this.active ? this.entries.get(tokenHash) : undefined;
  }

  /** A mark to pass to `keep`, taken before the database is read. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a caller read from the database, unless something was forgotten since `mark` was taken. */
  keep(tokenHash: string, entry: CachedCaller<T>, mark: number): void {
    if (!this.active || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, entry);
  }

  /** Forgets every kept caller: a notice came, or this process changed one itself. */
  forget(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Whether lookups are answered from the cache: notices are known to have arrived lately. */
  get active(): boolean {
    return !this.stopped && this.confirmedAt > 0 && performance.now() - this.confirmedAt <= this.timing.freshMs;
  }

  stop(): void {
    this.stopped = true;
    this.attempt++;
    this.confirmedAt = 0;
    this.forget();
    void this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const attempt = ++this.attempt;
    const current = () => attempt === this.attempt && !this.stopped;
    let client: pg.Client | undefined;
    let probeTimer: NodeJS.Timeout | undefined;
    /** Probes of this connection still out: payload → when sent. */
    const pending = new Map<string, number>();
    let sequence = 0;

    const onLost = (error?: unknown) => {
      if (!current()) return;
      this.attempt++; // this connection's probes and timers no longer count
      clearTimeout(probeTimer);
      const wasActive = this.confirmedAt > 0;
      this.confirmedAt = 0;
      this.forget();
      if (client) {
        void client.end().catch(() => undefined);
        // A silently dead socket would wait for TCP to give up before it closes.
        (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      }
      if (wasActive || !this.warned) {
        this.warned = true;
        log.warn("caller_cache_listener_lost", {
          ...(error ? errorSummary(error) : { errorType: "ConnectionEnded" }),
          retryInMs: RECONNECT_MS,
        });
      }
      setTimeout(() => void this.listen(), RECONNECT_MS).unref();
    };

    const probe = async () => {
      if (!current()) return;
      const payload = `${PROBE_PREFIX}${this.processId}:${attempt}:${++sequence}`;
      const sentAt = performance.now();
      // Waited for before it is sent: it can come back before the sending call returns.
      pending.set(payload, sentAt);
      try {
        await this.sendNotice(CALLER_CHANGE_CHANNEL, payload);
      } catch {
        // Not sent (the pool is busy or the database is away): the cache turns off as it goes stale,
        // and the listening connection is not to blame.
        pending.delete(payload);
      }
      // Checked once per probe: a probe is lost when it is still out a whole timeout after it was sent
      // and a later one has been sent since (so a timeout shorter than `everyMs` counts as `everyMs`).
      for (const [waiting, at] of pending) {
        if (at < sentAt - this.timing.timeoutMs) return onLost(new ProbeLost());
        if (waiting === payload) break;
      }
      probeTimer = setTimeout(() => void probe(), this.timing.everyMs);
      probeTimer.unref();
    };

    try {
      client = new pg.Client({
        connectionString: this.databaseUrl,
        keepAlive: true,
        connectionTimeoutMillis: 10_000,
        application_name: "cis caller notices",
      });
      this.client = client;
      client.on("notification", (notice) => {
        if (!current()) return;
        const payload = notice.payload ?? "";
        if (!payload.startsWith(PROBE_PREFIX)) return this.forget();
        const sentAt = pending.get(payload);
        if (sentAt === undefined) return; // another process's probe, or one of a lost connection's
        // Notices arrive in commit order: the probes sent before this one are back too, or lost.
        for (const [waiting] of pending) {
          pending.delete(waiting);
          if (waiting === payload) break;
        }
        if (this.confirmedAt === 0) {
          this.forget(); // nothing kept before this connection listened may stay
          this.warned = false;
        }
        this.confirmedAt = Math.max(this.confirmedAt, sentAt);
      });
      client.on("error", onLost);
      client.on("end", () => onLost());
      await client.connect();
      await client.query(`LISTEN ${CALLER_CHANGE_CHANNEL}`);
      // This connection must not keep a finished process alive.
      (client as unknown as { unref(): void }).unref(); // pg's Client.unref, missing from its types
    } catch (error) {
      onLost(error);
      return;
    }
    await probe();
  }
}

/** A probe sent on the channel did not come back in time: notices are not reaching this process. */
class ProbeLost extends Error {
  override name = "CallerNoticeProbeLost";
}
