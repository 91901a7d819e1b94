// GET /dashboard/credentials/import/<jobId>/progress: the numbers the progress page polls every second.
// A session is required, and the job must belong to the member's organization (otherwise 404, exactly
// as for a job that does not exist).
import { ApiError } from "@/lib/core/errors";
import { currentMember } from "@/lib/auth/member";
import { importProgress } from "@/lib/imports/service";

export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "no-store" };

export async function GET(_request: Request, { params }: { params: Promise<{ jobId: string }> }): Promise<Response> {
  const member = await currentMember();
  if (!member)
    return Response.json(
      { error: { code: "unauthorized", message: "Your session has ended; sign in again." } },
      { status: 401, headers: noStore },
    );
  const { jobId } = await params;
  try {
    return Response.json(await importProgress(member.organization.id, jobId), { headers: noStore });
  } catch (error) {
    if (error instanceof ApiError) return Response.json(error.toBody(), { status: error.status, headers: noStore });
    throw error;
  }
}
