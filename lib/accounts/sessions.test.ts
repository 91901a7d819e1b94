import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("sessions");

const { db } = await import("../db");
const { signUp } = await import("./service");
const sessions = await import("./sessions");

async function newUser(): Promise<string> {
  const { userId } = await signUp(
    {
      name: "Ada",
      email: `ada.${Math.random().toString(36).slice(2)}@example.com`,
      password: "correct horse battery",
      organizationName: "Org",
    },
    { clientAddress: `test-${Math.random()}` },
  );
  return userId;
}

describe("dashboard sessions", () => {
  it("are active until signed out; another user's id does not match", async () => {
    const userId = await newUser();
    const other = await newUser();
    const id = await sessions.startDashboardSession(userId, 0);
    expect(await sessions.isSessionActive(id, userId)).toBe(true);
    expect(await sessions.isSessionActive(id, other)).toBe(false);
    expect(await sessions.isSessionActive("ses_unknown", userId)).toBe(false);
    await sessions.endSession(id);
    expect(await sessions.isSessionActive(id, userId)).toBe(false);
  });

  it("end 7 days after sign-in however often they are used", async () => {
    const userId = await newUser();
    const start = new Date("2030-01-01T00:00:00Z");
    const id = await sessions.startDashboardSession(userId, 0, start);
    expect(await sessions.isSessionActive(id, userId, new Date(start.getTime() + sessions.SESSION_LIFETIME_SECONDS * 1000 - 1))).toBe(true);
    expect(await sessions.isSessionActive(id, userId, new Date(start.getTime() + sessions.SESSION_LIFETIME_SECONDS * 1000))).toBe(false);
  });

  it("sign out everywhere ends every session of the user and no one else's", async () => {
    const userId = await newUser();
    const other = await newUser();
    const a = await sessions.startDashboardSession(userId, 0);
    const b = await sessions.startDashboardSession(userId, 0);
    const theirs = await sessions.startDashboardSession(other, 0);
    expect(await sessions.activeSessionCount(userId)).toBe(2);
    await sessions.signOutEverywhere(userId);
    expect(await sessions.isSessionActive(a, userId)).toBe(false);
    expect(await sessions.isSessionActive(b, userId)).toBe(false);
    expect(await sessions.isSessionActive(theirs, other)).toBe(true);
    expect(await sessions.activeSessionCount(userId)).toBe(0);
    // A sign-in after it works.
    const c = await sessions.startDashboardSession(userId, await sessions.currentSessionVersion(userId));
    expect(await sessions.isSessionActive(c, userId)).toBe(true);
  });

  it("a sign-in whose password was checked before everything was ended is dead on arrival", async () => {
    const userId = await newUser();
    const versionAtCheck = await sessions.currentSessionVersion(userId);
    await sessions.signOutEverywhere(userId);
    const late = await sessions.startDashboardSession(userId, versionAtCheck);
    expect(await sessions.isSessionActive(late, userId)).toBe(false);
  });

  it("ending the others keeps the one that asked", async () => {
    const userId = await newUser();
    const mine = await sessions.startDashboardSession(userId, 0);
    const theirs = await sessions.startDashboardSession(userId, 0);
    await db().$transaction((tx) => sessions.endSessionsOf(tx, userId, mine));
    expect(await sessions.isSessionActive(mine, userId)).toBe(true);
    expect(await sessions.isSessionActive(theirs, userId)).toBe(false);
  });

  it("a new sign-in clears the user's rows that can no longer be used", async () => {
    const userId = await newUser();
    const old = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    await sessions.startDashboardSession(userId, 0, old);
    await sessions.startDashboardSession(userId, 0);
    await sessions.signOutEverywhere(userId);
    await db().dashboardSession.create({ data: { id: "ses_stale", userId, version: 0, expiresAt: new Date(Date.now() + 3600_000) } });
    await sessions.startDashboardSession(userId, 1);
    expect(await db().dashboardSession.count({ where: { userId } })).toBe(1);
  });
});
