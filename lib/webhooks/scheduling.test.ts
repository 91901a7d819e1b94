import { describe, expect, it } from "vitest";
import {
  claimShares,
  laneOf,
  LANES,
  PROVEN_AFTER,
  ProvenFast,
  QUICK_ANSWER_MS,
  SLOW_LANE_MS,
  SUSPECT_AFTER_MS,
  totalSlots,
  type DueEndpoint,
  type InFlightAttempt,
} from "./scheduling";

const endpoint = (id: string, organizationId: string, lane: DueEndpoint["lane"] = "normal"): DueEndpoint => ({ id, organizationId, lane });
const inFlight = (e: DueEndpoint, n: number, runningMs = 0): InFlightAttempt[] =>
  Array.from({ length: n }, () => ({ endpointId: e.id, organizationId: e.organizationId, lane: e.lane, runningMs }));
const rowsOf = (shares: ReturnType<typeof claimShares>) => Object.fromEntries(shares.map((s) => [s.endpointId, s.rows]));

describe("sharing the delivery slots", () => {
  it("gives one endpoint at most its small cap, however much it has due and however many slots are free", () => {
    const busy = endpoint("ep_busy", "org_a");
    expect(rowsOf(claimShares([busy], [], totalSlots(), 0))).toEqual({ ep_busy: LANES.normal.perEndpoint });
    // What it has in flight counts against the cap.
    expect(rowsOf(claimShares([busy], inFlight(busy, LANES.normal.perEndpoint - 3), totalSlots(), 0))).toEqual({ ep_busy: 3 });
    expect(claimShares([busy], inFlight(busy, LANES.normal.perEndpoint), totalSlots(), 0)).toEqual([]);
  });

  it("gives one organization at most its share of the lane, leaving the rest to the others", () => {
    const many = Array.from({ length: 10 }, (_, i) => endpoint(`ep_a${i}`, "org_a"));
    const other = endpoint("ep_b", "org_b");
    const shares = claimShares([...many, other], [], totalSlots(), 0);
    const a = shares.filter((s) => s.endpointId.startsWith("ep_a")).reduce((n, s) => n + s.rows, 0);
    // Two organizations have work: the lane is split evenly between them (at most 64 each).
    expect(a).toBe(Math.min(LANES.normal.perOrganization, LANES.normal.slots / 2));
    expect(rowsOf(shares).ep_b).toBe(LANES.normal.perEndpoint);
    // With its share in flight, the organization gets nothing more; the other still gets its cap.
    const full = many.slice(0, 4).flatMap((e) => inFlight(e, 16)); // 64: the organization's share
    expect(rowsOf(claimShares([...many, other], full, totalSlots(), 0))).toEqual({ ep_b: LANES.normal.perEndpoint });
  });

  it("splits a lane evenly between the organizations with work in it: two tenants with slow receivers cannot fill it", () => {
    // Two organizations, each with four endpoints that answer just inside the deadline (never suspect
    // for long enough to matter at the first claim), and a third organization's endpoint.
    const slowA = Array.from({ length: 4 }, (_, i) => endpoint(`ep_a${i}`, "org_a"));
    const slowB = Array.from({ length: 4 }, (_, i) => endpoint(`ep_b${i}`, "org_b"));
    const third = endpoint("ep_c", "org_c");
    const shares = rowsOf(claimShares([...slowA, ...slowB, third], [], totalSlots(), 0));
    const sum = (prefix: string) => Object.entries(shares).reduce((n, [id, rows]) => n + (id.startsWith(prefix) ? rows : 0), 0);
    expect(sum("ep_a")).toBeLessThanOrEqual(Math.floor(LANES.normal.slots / 3));
    expect(sum("ep_b")).toBeLessThanOrEqual(Math.floor(LANES.normal.slots / 3));
    expect(shares.ep_c).toBe(LANES.normal.perEndpoint);
    // Later, with the two tenants' shares in flight, the third still gets its endpoint's cap.
    const busy = [...slowA, ...slowB].flatMap((e) => inFlight(e, 9));
    expect(rowsOf(claimShares([...slowA, ...slowB, third], busy, totalSlots(), 0)).ep_c).toBe(LANES.normal.perEndpoint);
  });

  it("delivers endpoints that recently timed out in a lane of their own: they never take a healthy endpoint's slot", () => {
    const hanging = Array.from({ length: 20 }, (_, i) => endpoint(`ep_h${i}`, i < 10 ? "org_a" : "org_c", "slow"));
    const healthySame = endpoint("ep_ok_a", "org_a");
    const healthyOther = endpoint("ep_ok_b", "org_b");
    const shares = claimShares([...hanging, healthySame, healthyOther], [], totalSlots(), 0);
    const slow = shares.filter((s) => s.lane === "slow");
    expect(slow.reduce((n, s) => n + s.rows, 0)).toBe(LANES.slow.slots);
    for (const s of slow) expect(s.rows).toBeLessThanOrEqual(LANES.slow.perEndpoint);
    // Each organization's slow endpoints share at most its part of the slow lane.
    const organizationOf = new Map(hanging.map((e) => [e.id, e.organizationId]));
    for (const org of ["org_a", "org_c"])
      expect(slow.filter((s) => organizationOf.get(s.endpointId) === org).reduce((n, s) => n + s.rows, 0)).toBe(LANES.slow.perOrganization);
    expect(rowsOf(shares)).toMatchObject({ ep_ok_a: LANES.normal.perEndpoint, ep_ok_b: LANES.normal.perEndpoint });
    // With the slow lane full, the healthy endpoints still get their slots (and the slow ones none).
    const slowFull = hanging.slice(0, 8).flatMap((e) => inFlight(e, 2));
    expect(rowsOf(claimShares([...hanging, healthySame, healthyOther], slowFull, totalSlots() - 16, 0))).toEqual({
      ep_ok_a: 16,
      ep_ok_b: 16,
    });
  });

  it("a healthy endpoint of an organization whose other endpoints hang keeps slots before they are known to be slow", () => {
    const hanging = ["ep_1", "ep_2", "ep_3"].map((id) => endpoint(id, "org_a"));
    const healthy = endpoint("ep_ok", "org_a");
    const full = hanging.flatMap((e) => inFlight(e, LANES.normal.perEndpoint));
    expect(rowsOf(claimShares([...hanging, healthy], full, totalSlots(), 0)).ep_ok).toBeGreaterThan(0);
  });

  it("an endpoint with an attempt running past SUSPECT_AFTER_MS claims no more than the slow lane allows, and frees its organization's share", () => {
    // Four hanging endpoints not yet known to be slow fill their organization's share of the normal lane.
    const hanging = ["ep_1", "ep_2", "ep_3", "ep_4"].map((id) => endpoint(id, "org_a"));
    const healthy = endpoint("ep_ok", "org_a");
    const held = (runningMs: number) => hanging.flatMap((e) => inFlight(e, LANES.normal.perOrganization / 4, runningMs));
    // Young attempts: the share is taken, the healthy endpoint waits.
    expect(rowsOf(claimShares([...hanging, healthy], held(SUSPECT_AFTER_MS - 1), totalSlots(), 0))).toEqual({});
    // Running for SUSPECT_AFTER_MS: the healthy endpoint gets its cap, the hanging ones nothing more.
    expect(rowsOf(claimShares([...hanging, healthy], held(SUSPECT_AFTER_MS), totalSlots(), 0))).toEqual({
      ep_ok: LANES.normal.perEndpoint,
    });
    // Their attempts still hold slots of the lane: with the rest of it taken, nobody gets more.
    const others = Array.from({ length: 3 }, (_, i) => endpoint(`ep_b${i}`, `org_b${i}`)).flatMap((e) => inFlight(e, 16));
    expect(claimShares([...hanging, healthy], [...held(SUSPECT_AFTER_MS), ...others], totalSlots(), 0)).toEqual([]);
    // One suspect attempt among quick ones: the endpoint claims in the slow lane, up to its cap of 2.
    const mixed = endpoint("ep_mixed", "org_c");
    expect(claimShares([mixed], inFlight(mixed, 1, SUSPECT_AFTER_MS), totalSlots(), 0)).toEqual([
      { endpointId: "ep_mixed", lane: "slow", rows: LANES.slow.perEndpoint - 1 },
    ]);
    // Endpoints already in the slow lane keep counting against their organization's part of it.
    const slow = Array.from({ length: 5 }, (_, i) => endpoint(`ep_s${i}`, "org_s", "slow"));
    const slowHeld = slow.slice(0, 4).flatMap((e) => inFlight(e, LANES.slow.perEndpoint, SUSPECT_AFTER_MS * 3));
    expect(claimShares(slow, slowHeld, totalSlots(), 0)).toEqual([]);
  });

  it("gives an endpoint no more than it has due, so slots it cannot use go to the endpoints after it", () => {
    // Three hanging endpoints not yet known to be slow hold 48 of the normal lane's 112 slots; a proven
    // endpoint of another organization with one row due must not take the other 64 on paper.
    const hanging = ["ep_1", "ep_2", "ep_3"].map((id) => endpoint(id, "org_a"));
    const healthy = { ...endpoint("ep_ok_a", "org_a"), dueRows: 1 };
    const proven = { ...endpoint("ep_ok_b", "org_b"), proven: true, dueRows: 1 };
    const held = hanging.flatMap((e) => inFlight(e, LANES.normal.perEndpoint));
    expect(rowsOf(claimShares([proven, healthy, ...hanging], held, totalSlots() - held.length, 0))).toEqual({ ep_ok_a: 1, ep_ok_b: 1 });
    expect(rowsOf(claimShares([{ ...proven, dueRows: 100 }], [], totalSlots(), 0))).toEqual({ ep_ok_b: LANES.normal.perProvenEndpoint });
  });

  it("never hands out more than the free slots, starting at the rotating position", () => {
    const due = ["ep_1", "ep_2", "ep_3"].map((id) => endpoint(id, `org_${id}`));
    expect(claimShares(due, [], 20, 1)).toEqual([
      { endpointId: "ep_2", lane: "normal", rows: 16 },
      { endpointId: "ep_3", lane: "normal", rows: 4 },
    ]);
    expect(claimShares(due, [], 0, 0)).toEqual([]);
  });

  it("an endpoint is in the slow lane for a while after its last attempt ran into the deadline", () => {
    const now = new Date();
    expect(laneOf(null, now)).toBe("normal");
    expect(laneOf(new Date(now.getTime() - 1000), now)).toBe("slow");
    expect(laneOf(new Date(now.getTime() - SLOW_LANE_MS), now)).toBe("normal");
  });

  it("an endpoint that answered its last attempts quickly may have more in flight; one slow or failed answer takes it back to the small cap", () => {
    const proven = new ProvenFast();
    for (let i = 0; i < PROVEN_AFTER - 1; i++) proven.note("ep_1", true, 50);
    expect(proven.has("ep_1")).toBe(false);
    proven.note("ep_1", true, 50);
    expect(proven.has("ep_1")).toBe(true);
    const busy = { ...endpoint("ep_1", "org_a"), proven: proven.has("ep_1") };
    expect(rowsOf(claimShares([busy], [], totalSlots(), 0))).toEqual({ ep_1: LANES.normal.perProvenEndpoint });
    proven.note("ep_1", true, QUICK_ANSWER_MS + 1);
    expect(proven.has("ep_1")).toBe(false);
    for (let i = 0; i < PROVEN_AFTER; i++) proven.note("ep_1", true, 50);
    proven.note("ep_1", false, 5);
    expect(proven.has("ep_1")).toBe(false);
    // Proven or not, an endpoint in the slow lane keeps the slow lane's cap.
    expect(rowsOf(claimShares([{ ...endpoint("ep_2", "org_a", "slow"), proven: true }], [], totalSlots(), 0))).toEqual({
      ep_2: LANES.slow.perEndpoint,
    });
  });
});
