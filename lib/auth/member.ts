// The signed-in member for dashboard pages and server actions. Every page and action calls one of
// these; none trusts anything from the client about which organization it acts on. Reading the
// session runs next-auth's jwt callback, which checks the session row (dashboard-auth.ts), so an
// ended session is refused here on every request.
import { getServerSession, type AuthOptions } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { findMember, type Member } from "../accounts/service";
import { dashboardAuthOptions } from "./dashboard-auth";

type DashboardSession = { userId: string; sessionId: string };

// Once per request: the layout and the page both ask.
const currentSession = cache(async (): Promise<DashboardSession | null> => {
  const session = await getServerSession<AuthOptions, { userId?: string; sessionId?: string }>(dashboardAuthOptions());
  return session?.userId && session.sessionId ? { userId: session.userId, sessionId: session.sessionId } : null;
});

export async function currentMember(): Promise<Member | null> {
  const session = await currentSession();
  return session ? findMember(session.userId) : null;
}

/** The member, or a redirect to the sign-in page. */
export async function requireMember(): Promise<Member> {
  const member = await currentMember();
  if (!member) redirect("/signin");
  return member;
}

/** The member and the session this request came with (account settings act on the session itself). */
export async function requireMemberSession(): Promise<{ member: Member; sessionId: string }> {
  const session = await currentSession();
  const member = session ? await findMember(session.userId) : null;
  if (!session || !member) redirect("/signin");
  return { member, sessionId: session.sessionId };
}
