// The delivery loop every outbox shares: up to `parallel` deliveries in flight, each recorded as soon
// as it ends, so a slow receiver holds only its own slot. By default rows are claimed only for free
// slots, so a claimed row starts at once and its lease runs during its attempt, not while it waits.
// With `prefetch`, a claim also takes that many rows more, held in this process and started as slots
// free: a stream of quick deliveries does not wait for a claim per slot (mail: 5 connections, a claim
// every 50 ms, used to cap delivery at 100 emails/s). A held row that waited too long for its slot is
// given back (`release`) rather than started late in its lease. A crash can re-deliver only the rows
// in flight, whose outcome was not recorded (at least once); rows it held are claimed again once their
// lease runs out.
import { errorSummary, log } from "../log";

export type DeliveryPool = {
  /** Claims due rows for the free slots and starts delivering them; resolves once they are claimed, with how many. */
  claim(now?: Date): Promise<number>;
  /** Resolves when every delivery started so far has its outcome recorded. */
  settled(): Promise<void>;
};

export type DeliveryPoolOptions<Row, Outcome> = {
  /** Log event name for a failed write of outcomes (`mail_worker_error`, ...). */
  name: string;
  parallel: number;
  /**
   * While deliveries are in flight, claim at most once per this many ms (default 0): under a steady
   * stream of quick deliveries, one claim per batch rather than one per delivery. A claim held back
   * runs when the interval is over.
   */
  claimIntervalMs?: number;
  /**
   * Free a slot when its attempt ends rather than once its outcome is written (default false): where
   * outcome writes wait behind other work, the slots keep sending meanwhile. The row stays leased
   * until its outcome is written either way.
   */
  freeSlotWhenAttempted?: boolean;
  /** Wait this long before each write of outcomes (default 0), so that one write takes more of them. */
  recordBatchMs?: number;
  /** Leases up to `limit` due rows. `inFlight` are the rows being delivered now (for fairness rules). */
  claim: (now: Date, limit: number, inFlight: readonly Row[]) => Promise<Row[]>;
  /** One attempt; must not throw and must end within the lease (it has its own deadline). */
  deliver: (row: Row) => Promise<Outcome>;
  /** Rows to claim beyond the free slots, held here until a slot frees (default 0: none). */
  prefetch?: number;
  /** How long a held row may wait for its slot before it is given back (with `prefetch`; its lease must outlast this plus an attempt). */
  maxHoldMs?: number;
  /** Gives held rows back unattempted (required with `prefetch`): their lease and the attempt their claim counted. */
  release?: (rows: Row[]) => Promise<void>;
  /** Writes a batch of outcomes in one go. */
  record: (outcomes: Outcome[]) => Promise<void>;
  /** Runs after each outcome is recorded (to claim again). */
  onSlotFree?: () => void;
};

/**
 * Records outcomes one write at a time: outcomes that end while a write is under way go together in the
 * next one (a burst costs few transactions, a slow delivery none). Resolves once the write that holds
 * the outcome is done (or failed and was logged: the row's lease runs out and it is tried again).
 */
function outcomeRecorder<Outcome>(
  name: string,
  record: (outcomes: Outcome[]) => Promise<void>,
  batchMs = 0,
): (outcome: Outcome) => Promise<void> {
  let waiting: { outcome: Outcome; written: () => void }[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    if (batchMs > 0) await new Promise((r) => setTimeout(r, batchMs));
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await record(batch.map((w) => w.outcome)).catch((e) => log.error(name, errorSummary(e)));
      for (const w of batch) w.written();
    }
    writing = false;
  };
  return (outcome) =>
    new Promise<void>((written) => {
      waiting.push({ outcome, written });
      if (!writing) void drain();
    });
}

export function deliveryPool<Row, Outcome>(options: DeliveryPoolOptions<Row, Outcome>): DeliveryPool {
  if ((options.prefetch ?? 0) > 0 && !options.release)
    throw new Error(`${options.name}: a pool that holds rows (prefetch) must be able to give them back (release)`);
  /** Rows holding a slot. */
  const inFlight = new Map<Promise<unknown>, Row>();
  /** Deliveries whose outcome is not written yet. */
  const unsettled = new Set<Promise<void>>();
  /** Claimed rows waiting for a slot (with `prefetch`), oldest first, with when they were claimed. */
  const held: { row: Row; claimedAt: number }[] = [];
  /** Resolves when the held rows are started or given back (so `settled` waits for them too). */
  let heldDrained: Promise<void> | undefined;
  let drainedNow: (() => void) | undefined;
  let reserved = 0; // slots of a claim under way, so that two claims at once cannot take too many rows
  const record = outcomeRecorder(options.name, options.record, options.recordBatchMs);
  const interval = options.claimIntervalMs ?? 0;
  const prefetch = options.prefetch ?? 0;
  const maxHoldMs = options.maxHoldMs ?? Infinity;
  let lastClaim = 0;
  let heldBack: NodeJS.Timeout | undefined;

  const start = (row: Row) => {
    const attempted = options.deliver(row);
    const done: Promise<void> = attempted.then(record).finally(() => {
      unsettled.delete(done);
      if (!options.freeSlotWhenAttempted) {
        inFlight.delete(done);
        slotFreed();
      }
    });
    unsettled.add(done);
    if (options.freeSlotWhenAttempted) {
      const slot: Promise<unknown> = attempted.finally(() => {
        inFlight.delete(slot);
        slotFreed();
      });
      inFlight.set(slot, row);
    } else inFlight.set(done, row);
  };

  /** Starts held rows in the free slots; rows held past `maxHoldMs` are given back instead. */
  const startHeld = () => {
    const stale: Row[] = [];
    while (held.length > 0 && inFlight.size < options.parallel) {
      const next = held.shift()!;
      if (Date.now() - next.claimedAt > maxHoldMs) stale.push(next.row);
      else start(next.row);
    }
    if (stale.length > 0) {
      // Kept with the deliveries, so `settled` also waits for the rows to be back in the queue.
      const released: Promise<void> = options.release!(stale)
        .catch((e) => log.error(options.name, errorSummary(e)))
        .finally(() => unsettled.delete(released));
      unsettled.add(released);
    }
    if (held.length === 0 && drainedNow) {
      drainedNow();
      drainedNow = undefined;
      heldDrained = undefined;
    }
  };

  function slotFreed() {
    startHeld();
    options.onSlotFree?.();
  }

  return {
    async claim(now = new Date()) {
      startHeld();
      const free = options.parallel + prefetch - inFlight.size - held.length - reserved;
      // Held rows already cover what the slots will take next: claim again when fewer than half remain.
      if (free <= 0 || (prefetch > 0 && held.length > prefetch / 2)) return 0;
      const wait = lastClaim + interval - Date.now();
      if (inFlight.size > 0 && wait > 0) {
        heldBack ??= setTimeout(() => {
          heldBack = undefined;
          options.onSlotFree?.();
        }, wait);
        return 0;
      }
      lastClaim = Date.now();
      reserved += free;
      let rows: Row[];
      try {
        rows = await options.claim(now, free, [...inFlight.values()]);
      } finally {
        reserved -= free;
      }
      const claimedAt = Date.now();
      for (const row of rows) held.push({ row, claimedAt });
      if (held.length > 0 && !heldDrained) heldDrained = new Promise((resolve) => (drainedNow = resolve));
      startHeld();
      return rows.length;
    },
    async settled() {
      while (unsettled.size > 0 || heldDrained) await Promise.all([...unsettled, heldDrained]);
    },
  };
}
