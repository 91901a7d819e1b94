// The delivery loop every outbox shares: up to `parallel` deliveries in flight, each recorded as soon
// as it ends, so a slow receiver holds only its own slot. Rows are claimed only for free slots, so a
// claimed row starts at once and its lease runs during its attempt, not while it waits. A crash can
// re-deliver only the rows in flight, whose outcome was not recorded (at least once).
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
function outcomeRecorder<Outcome>(name: string, record: (outcomes: Outcome[]) => Promise<void>, batchMs = 0): (outcome: Outcome) => Promise<void> {
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
  /** Rows holding a slot. */
  const inFlight = new Map<Promise<unknown>, Row>();
  /** Deliveries whose outcome is not written yet. */
  const unsettled = new Set<Promise<void>>();
  let reserved = 0; // slots of a claim under way, so that two claims at once cannot take too many rows
  const record = outcomeRecorder(options.name, options.record, options.recordBatchMs);
  const interval = options.claimIntervalMs ?? 0;
  let lastClaim = 0;
  let heldBack: NodeJS.Timeout | undefined;
  return {
    async claim(now = new Date()) {
      const free = options.parallel - inFlight.size - reserved;
      if (free <= 0) return 0;
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
      for (const row of rows) {
        const attempted = options.deliver(row);
        const done: Promise<void> = attempted.then(record).finally(() => {
          unsettled.delete(done);
          if (!options.freeSlotWhenAttempted) {
            inFlight.delete(done);
            options.onSlotFree?.();
          }
        });
        unsettled.add(done);
        if (options.freeSlotWhenAttempted) {
          const slot: Promise<unknown> = attempted.finally(() => {
            inFlight.delete(slot);
            options.onSlotFree?.();
          });
          inFlight.set(slot, row);
        } else inFlight.set(done, row);
      }
      return rows.length;
    },
    async settled() {
      while (unsettled.size > 0) await Promise.all(unsettled);
    },
  };
}
