// How a process's delivery slots are shared, so that slow receivers slow only their own deliveries.
// Slots come in two lanes: endpoints whose attempts recently ran into the deadline are delivered in
// the slow lane, a few slots of its own; every other endpoint in the normal lane. In each lane an
// endpoint has at most a small number of attempts in flight, and an organization at most a share of
// the lane's slots (split evenly between the organizations with work in it, at most 64 each): hanging
// receivers cost their owner a few slots, never everyone's. An endpoint is
// suspect as soon as one of its attempts has run far longer than answers normally take, before the
// deadline proves it slow: it claims no more than the slow lane allows, and what it has in flight no
// longer counts against its organization's share, so the organization's other endpoints go on.
// Pure rules, no I/O: the worker (worker.ts) counts what is in flight and claims what this returns.

export type Lane = "normal" | "slow";

export type LaneLimits = {
  /** Attempts this lane may have in flight in the process. */
  slots: number;
  /** Attempts in flight to one endpoint. */
  perEndpoint: number;
  /** Attempts in flight to one endpoint whose recent answers all came quickly (see ProvenFast). */
  perProvenEndpoint: number;
  /** Attempts in flight to the endpoints of one organization. */
  perOrganization: number;
};

/**
 * A hanging endpoint holds its slots for the whole 10 s deadline before it is known to be slow; after
 * SUSPECT_AFTER_MS they stop counting against its organization's share (see claimShares), so three of
 * them hold 48 of their organization's 64 normal slots for 2 s, not 10. Once an attempt has run into
 * the deadline they share 16 slots with every other slow endpoint, 2 each.
 * An endpoint whose last answers all came quickly may have up to 64 in flight (as many as a busy
 * process needs to keep up with one endpoint that receives every event while issuing runs flat out);
 * if it starts hanging it holds its organization's share until it is suspect, and the others go on.
 */
export const LANES: Readonly<Record<Lane, LaneLimits>> = {
  normal: { slots: 112, perEndpoint: 16, perProvenEndpoint: 64, perOrganization: 64 },
  slow: { slots: 16, perEndpoint: 2, perProvenEndpoint: 2, perOrganization: 8 },
};

/**
 * The least share of a lane an organization is held to when many organizations have deliveries: the
 * lane's slots are split evenly between the organizations that have work in it (never more than
 * `perOrganization`, never less than this), so that two tenants with slow receivers cannot fill the
 * lane between them and leave a third none.
 */
export const LEAST_ORGANIZATION_SHARE = 8;

/** The most attempts any endpoint may have in flight: counting its due rows beyond this is useless. */
export const MOST_PER_ENDPOINT = Math.max(LANES.normal.perProvenEndpoint, LANES.slow.perProvenEndpoint);

/** Every slot of the process, both lanes. */
export function totalSlots(lanes: Readonly<Record<Lane, LaneLimits>> = LANES): number {
  return lanes.normal.slots + lanes.slow.slots;
}

/** How long after its last attempt ran into the deadline an endpoint stays in the slow lane (unless an attempt succeeds). */
export const SLOW_LANE_MS = 15 * 60_000;

/** The lane of an endpoint whose last attempt that ran into the deadline was at `timedOutAt` (null: none since its last success). */
export function laneOf(timedOutAt: Date | null, now: Date): Lane {
  return timedOutAt !== null && now.getTime() - timedOutAt.getTime() < SLOW_LANE_MS ? "slow" : "normal";
}

/** A quick answer is one within this long; PROVEN_AFTER of them in a row, and nothing slower, prove an endpoint. */
export const QUICK_ANSWER_MS = 1000;
export const PROVEN_AFTER = 16;
/**
 * An attempt running this long (twice a quick answer, a fifth of the deadline) is suspect: its endpoint
 * is treated as slow until the attempt ends (see claimShares). Short enough that hanging endpoints hold
 * their organization's share briefly; long enough that a receiver answering in the usual tens or
 * hundreds of milliseconds is never suspect.
 */
export const SUSPECT_AFTER_MS = 2 * QUICK_ANSWER_MS;

/**
 * Which endpoints answered their last PROVEN_AFTER attempts quickly and successfully, in this process
 * (a new process starts every endpoint at the small cap: it costs a few round trips to prove again).
 */
export class ProvenFast {
  private readonly streaks = new Map<string, number>();
  note(endpointId: string, succeeded: boolean, durationMs: number): void {
    if (succeeded && durationMs <= QUICK_ANSWER_MS)
      this.streaks.set(endpointId, Math.min(PROVEN_AFTER, (this.streaks.get(endpointId) ?? 0) + 1));
    else this.streaks.delete(endpointId);
  }
  has(endpointId: string): boolean {
    return (this.streaks.get(endpointId) ?? 0) >= PROVEN_AFTER;
  }
}

export type DueEndpoint = {
  id: string;
  organizationId: string;
  lane: Lane;
  proven?: boolean;
  /** How many rows it has due (counted up to MOST_PER_ENDPOINT): its share is never more. */
  dueRows?: number;
};
/** An attempt in flight, in the lane it was claimed in, and how long it has been running. */
export type InFlightAttempt = { endpointId: string; organizationId: string; lane: Lane; runningMs?: number };
export type ClaimShare = { endpointId: string; lane: Lane; rows: number };

function counter() {
  const counts = new Map<string, number>();
  return { get: (key: string) => counts.get(key) ?? 0, add: (key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n) };
}

/** Endpoints with an attempt in flight that has run SUSPECT_AFTER_MS or longer. */
function suspectEndpoints(inFlight: readonly InFlightAttempt[]): Set<string> {
  return new Set(inFlight.filter((a) => (a.runningMs ?? 0) >= SUSPECT_AFTER_MS).map((a) => a.endpointId));
}

/**
 * How many rows to claim for each endpoint with deliveries due, at most `limit` in all, given what is
 * in flight. Endpoints are visited from `start` on (the caller rotates it, so that none is always
 * served last), each taking what its lane, its organization's share and its own cap leave, and no
 * more than it has due.
 *
 * A suspect endpoint (suspectEndpoints) claims in the slow lane, whatever lane it is in: with what it
 * already has in flight counted against the slow lane's cap of 2, a hanging endpoint gets nothing more
 * until its attempts end. Its attempts in the normal lane still hold slots of that lane (the process
 * has no more), but no longer its organization's share: otherwise a few hanging endpoints would hold
 * all of it until the deadline, and their organization's healthy endpoints would wait behind them.
 */
export function claimShares(
  due: readonly DueEndpoint[],
  inFlight: readonly InFlightAttempt[],
  limit: number,
  start: number,
  lanes: Readonly<Record<Lane, LaneLimits>> = LANES,
): ClaimShare[] {
  const byLane = counter();
  const byOrganization = counter();
  const byEndpoint = counter();
  const take = (a: { endpointId: string; organizationId: string; lane: Lane }, n: number) => {
    byLane.add(a.lane, n);
    byOrganization.add(`${a.lane} ${a.organizationId}`, n);
    byEndpoint.add(a.endpointId, n);
  };
  const suspects = suspectEndpoints(inFlight);
  for (const attempt of inFlight) {
    if (attempt.lane === "normal" && suspects.has(attempt.endpointId)) {
      byLane.add(attempt.lane, 1);
      byEndpoint.add(attempt.endpointId, 1);
    } else take(attempt, 1);
  }
  // The organizations with work in each lane: those with rows due there and those with attempts there
  // that still count against a share.
  const active = { normal: new Set<string>(), slow: new Set<string>() } satisfies Record<Lane, Set<string>>;
  for (const endpoint of due) active[suspects.has(endpoint.id) ? "slow" : endpoint.lane].add(endpoint.organizationId);
  for (const attempt of inFlight)
    if (!(attempt.lane === "normal" && suspects.has(attempt.endpointId))) active[attempt.lane].add(attempt.organizationId);
  const organizationShare = (laneName: Lane) => {
    const lane = lanes[laneName];
    const even = Math.floor(lane.slots / Math.max(1, active[laneName].size));
    return Math.min(lane.perOrganization, Math.max(Math.min(LEAST_ORGANIZATION_SHARE, lane.perOrganization), even));
  };
  const shares: ClaimShare[] = [];
  let left = limit;
  for (let i = 0; i < due.length && left > 0; i++) {
    const endpoint = due[(start + i) % due.length]!;
    const laneName: Lane = suspects.has(endpoint.id) ? "slow" : endpoint.lane;
    const lane = lanes[laneName];
    const rows = Math.min(
      left,
      lane.slots - byLane.get(laneName),
      organizationShare(laneName) - byOrganization.get(`${laneName} ${endpoint.organizationId}`),
      (endpoint.proven ? lane.perProvenEndpoint : lane.perEndpoint) - byEndpoint.get(endpoint.id),
      // Slots it could not use would be withheld from the endpoints visited after it in this claim.
      endpoint.dueRows ?? Infinity,
    );
    if (rows <= 0) continue;
    take({ endpointId: endpoint.id, organizationId: endpoint.organizationId, lane: laneName }, rows);
    shares.push({ endpointId: endpoint.id, lane: laneName, rows });
    left -= rows;
  }
  return shares;
}
