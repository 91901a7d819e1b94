// An organization's logo, as shown on its credentials' wallet pages.
import { db } from "@/lib/db";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const org = await db().organization.findUnique({ where: { id }, select: { logoData: true, logoMimeType: true, updatedAt: true } });
  if (!org?.logoData || !org.logoMimeType) {
    return Response.json({ error: { code: "not_found", message: "No logo." } }, { status: 404 });
  }
  return new Response(new Uint8Array(org.logoData), {
    headers: { "Content-Type": org.logoMimeType, "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" },
  });
}
