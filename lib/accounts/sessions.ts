// Dashboard sessions: one row per signed-in browser. The session cookie is a next-auth JWT that names
// its row (`sid`); every dashboard request checks the row (lib/auth/dashboard-auth.ts, jwt callback),
// so a session ends the moment its row goes or its version falls behind the user's:
//   sign-out                      deletes the row of the browser that signs out;
//   sign out everywhere           raises User.sessionVersion (and deletes the rows);
//   password change               raises it too, and moves the changing browser's row along;
//   password reset                raises it.
// The version, not only the rows, decides: a sign-in whose password check ran before a reset
// committed starts its row with the old version, and that row is dead on arrival.
import { db, type Tx } from "../db";
import { newId } from "../db/ids";

/** Sessions last this long from sign-in, however often they are used; then the person signs in again. */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;

/**
 * Starts a session for a user whose credentials were checked when their sessionVersion was `version`.
 * Also clears the user's rows that can no longer be used, so rows do not pile up.
 */
export async function startDashboardSession(userId: string, version: number, now = new Date()): Promise<string> {
  const id = newId("ses");
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  await db().$transaction([
    db().dashboardSession.deleteMany({ where: { userId, OR: [{ expiresAt: { lte: now } }, { version: { lt: version } }] } }),
    db().dashboardSession.create({ data: { id, userId, version, expiresAt, createdAt: now } }),
  ]);
  return id;
}

/** The user's current session version, for a sign-in that did not check a password (OAuth). */
export async function currentSessionVersion(userId: string): Promise<number> {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } });
  return user.sessionVersion;
}

/** Whether the session exists, belongs to `userId`, has not expired and has not been ended. */
export async function isSessionActive(sessionId: string, userId: string, now = new Date()): Promise<boolean> {
  const row = await db().dashboardSession.findUnique({
    where: { id: sessionId },
    select: { userId: true, version: true, expiresAt: true, user: { select: { sessionVersion: true } } },
  });
  return row !== null && row.userId === userId && row.expiresAt > now && row.version === row.user.sessionVersion;
}

/** Sign-out: this browser's session ends; the cookie, if copied elsewhere, stops working with it. */
export async function endSession(sessionId: string): Promise<void> {
  await db().dashboardSession.deleteMany({ where: { id: sessionId } });
}

/**
 * Ends every session of the user, in the caller's transaction; `keep` (the browser that changed its
 * own password) moves to the new version and goes on. Returns the new version.
 */
export async function endSessionsOf(tx: Tx, userId: string, keep?: string): Promise<number> {
  const { sessionVersion } = await tx.user.update({
    where: { id: userId },
    data: { sessionVersion: { increment: 1 } },
    select: { sessionVersion: true },
  });
  if (keep) await tx.dashboardSession.updateMany({ where: { id: keep, userId }, data: { version: sessionVersion } });
  await tx.dashboardSession.deleteMany({ where: { userId, ...(keep ? { id: { not: keep } } : {}) } });
  return sessionVersion;
}

/** "Sign out everywhere": every browser signed in as this user, this one included, is signed out. */
export async function signOutEverywhere(userId: string): Promise<void> {
  await db().$transaction((tx) => endSessionsOf(tx, userId));
}

/** How many browsers are signed in as this user now (for the account settings). */
export async function activeSessionCount(userId: string, now = new Date()): Promise<number> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  if (!user) return 0;
  return db().dashboardSession.count({ where: { userId, version: user.sessionVersion, expiresAt: { gt: now } } });
}
