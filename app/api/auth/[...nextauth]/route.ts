import NextAuth from "next-auth";
import { dashboardAuthOptions } from "@/lib/auth/dashboard-auth";

type RouteContext = { params: Promise<{ nextauth: string[] }> };
type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

// Options are built per request: they read the app secret, which exists only once the server runs.
// NextAuth's own typing of its App Router form is `any`; this is the shape it has.
function handler(request: Request, context: RouteContext): Promise<Response> {
  return (NextAuth(dashboardAuthOptions()) as RouteHandler)(request, context);
}

export { handler as GET, handler as POST };
