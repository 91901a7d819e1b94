// GET /dashboard/analytics/export?period=30d (or ?from=&to=): the analytics funnel and its series as
// CSV, for the signed-in member's organization only. A session is required (401 otherwise); a bad
// period answers 400 naming the field.
import { currentMember } from "@/lib/auth/member";
import { invalidFields } from "@/lib/core/errors";
import { issuingFunnel } from "@/lib/interactions/funnel";
import { funnelCsv, funnelCsvFilename } from "@/lib/interactions/funnel-csv";
import { parsePeriod } from "@/lib/interactions/period";

export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "no-store" };

export async function GET(request: Request): Promise<Response> {
  const member = await currentMember();
  if (!member)
    return Response.json(
      { error: { code: "unauthorized", message: "Your session has ended; sign in again." } },
      { status: 401, headers: noStore },
    );
  const query = new URL(request.url).searchParams;
  const parsed = parsePeriod({
    period: query.get("period") ?? undefined,
    from: query.get("from") ?? undefined,
    to: query.get("to") ?? undefined,
  });
  if ("errors" in parsed) {
    const error = invalidFields(parsed.errors.map((e) => ({ path: e.field, message: e.message })));
    return Response.json(error.toBody(), { status: error.status, headers: noStore });
  }
  const funnel = await issuingFunnel(member.organization.id, parsed.period);
  return new Response(funnelCsv(funnel), {
    headers: {
      ...noStore,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${funnelCsvFilename(member.organization.slug, funnel)}"`,
    },
  });
}
