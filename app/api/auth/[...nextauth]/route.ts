import NextAuth from "next-auth";
import { dashboardAuthOptions } from "@/lib/auth/dashboard-auth";

// Options are built per request: they read the app secret, which exists only once the server runs.
function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(dashboardAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
