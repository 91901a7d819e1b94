// The signed-in member for dashboard pages and server actions. Every page and action calls one of
// these; none trusts anything from the client about which organization it acts on.
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { findMember, type Member } from "../accounts/service";
import { dashboardAuthOptions } from "./dashboard-auth";

export async function currentMember(): Promise<Member | null> {
  const session = (await getServerSession(dashboardAuthOptions())) as { userId?: string } | null;
  return session?.userId ? findMember(session.userId) : null;
}

/** The member, or a redirect to the sign-in page. */
export async function requireMember(): Promise<Member> {
  const member = await currentMember();
  if (!member) redirect("/signin");
  return member;
}
