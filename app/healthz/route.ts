// Health for load balancers and monitoring (README, "Running in production"): 200 while the database
// answers (status `ok`, or `degraded` when due email waits too long: the web process can still serve),
// 503 when it does not. For the framework's ceiling without the database, see /livez.
import { currentHealth } from "@/lib/health/service";

export async function GET(): Promise<Response> {
  const health = await currentHealth();
  return Response.json(health, { status: health.status === "unavailable" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
}
