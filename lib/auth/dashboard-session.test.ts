// next-auth's callbacks as the route handler and getServerSession call them: the one place a
// dashboard session is started and checked, for password and OAuth sign-ins alike.
import type { Account, Profile, User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

/** The cookies the route handler would add to its answer (next/headers' cookie jar). */
const cookieJar = vi.hoisted(() => ({ set: [] as [string, string, Record<string, unknown>][] }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    set: (name: string, value: string, options: Record<string, unknown>) => cookieJar.set.push([name, value, options]),
  }),
  headers: async () => new Headers(),
}));

await scratchDatabase("dashboard-session");

const { db } = await import("../db");
const { signUp } = await import("../accounts/service");
const { signOutEverywhere } = await import("../accounts/sessions");
const { dashboardAuthOptions } = await import("./dashboard-auth");
const { readDeviceCookie } = await import("./sign-in-device");

const options = dashboardAuthOptions();
const jwt = (params: { token: JWT; user?: User; account?: Account | null; profile?: Profile }) =>
  options.callbacks!.jwt!(params as Parameters<NonNullable<NonNullable<typeof options.callbacks>["jwt"]>>[0]);
const signOut = (token: JWT) =>
  options.events!.signOut!({ token } as Parameters<NonNullable<NonNullable<typeof options.events>["signOut"]>>[0]);

async function passwordSignIn() {
  const email = `ada.${Math.random().toString(36).slice(2)}@example.com`;
  const { userId } = await signUp(
    { name: "Ada", email, password: "correct horse battery", organizationName: "Org" },
    { clientAddress: `test-${Math.random()}` },
  );
  const token = await jwt({
    token: { email },
    user: { id: userId, email, name: "Ada", sessionVersion: 0 } as User,
    account: { type: "credentials", provider: "credentials", providerAccountId: userId },
  });
  return { userId, token };
}

describe("dashboard sessions in next-auth's callbacks", () => {
  it("a password sign-in starts a session row that every later read checks; sign-out ends it for every copy of the cookie", async () => {
    const { userId, token } = await passwordSignIn();
    expect(token.sub).toBe(userId);
    expect(await db().dashboardSession.count({ where: { id: token.sid as string, userId } })).toBe(1);
    await expect(jwt({ token })).resolves.toMatchObject({ sub: userId, sid: token.sid });
    await signOut(token);
    await expect(jwt({ token })).rejects.toThrow("SessionEnded");
  });

  it("every sign-in marks the browser with an HttpOnly device cookie naming the account", async () => {
    cookieJar.set.length = 0;
    const { userId } = await passwordSignIn();
    expect(cookieJar.set).toHaveLength(1);
    const [name, value, cookieOptions] = cookieJar.set[0]!;
    expect(name).toBe("cis.sign-in-device");
    expect(cookieOptions).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 180 * 24 * 3600 });
    expect(readDeviceCookie(value)?.userId).toBe(userId);
    // Reading the session later sets nothing.
    cookieJar.set.length = 0;
    await jwt({ token: (await passwordSignIn()).token });
    expect(cookieJar.set).toHaveLength(1);
  });

  it("refuses a cookie from before sessions had rows, and one whose user and session do not match", async () => {
    const { token } = await passwordSignIn();
    const other = await passwordSignIn();
    await expect(jwt({ token: { sub: token.sub } })).rejects.toThrow("SessionEnded");
    await expect(jwt({ token: { ...token, sub: other.userId } })).rejects.toThrow("SessionEnded");
  });

  it("a Google sign-in with a verified email follows the same rule", async () => {
    const email = `oauth.${Math.random().toString(36).slice(2)}@example.com`;
    const token = await jwt({
      token: { email },
      user: { id: "google-subject", email, name: "Grace" },
      account: { type: "oauth", provider: "google", providerAccountId: "google-subject" },
      profile: { email, email_verified: true } as Profile,
    });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(token.sub).toBe(user.id);
    await expect(jwt({ token })).resolves.toMatchObject({ sub: user.id });
    await signOutEverywhere(user.id);
    await expect(jwt({ token })).rejects.toThrow("SessionEnded");
    // Signing in again after that works.
    const again = await jwt({
      token: { email },
      user: { id: "google-subject", email, name: "Grace" },
      account: { type: "oauth", provider: "google", providerAccountId: "google-subject" },
      profile: { email, email_verified: true } as Profile,
    });
    await expect(jwt({ token: again })).resolves.toMatchObject({ sub: user.id });
  });

  it("the session handed to pages names the user and the session", async () => {
    const { userId, token } = await passwordSignIn();
    const session = await options.callbacks!.session!({ session: { expires: "" }, token } as never);
    expect(session).toMatchObject({ userId, sessionId: token.sid });
  });
});
