// Liveness: the process answers HTTP. Touches nothing else, so it is also the framework's own ceiling
// that `npm run bench:api` and `bench:render` compare other routes with.
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
