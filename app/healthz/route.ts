// Liveness for load balancers and orchestrators: answers without touching the database, so it also
// measures the framework's own ceiling in `npm run bench:api`.
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
