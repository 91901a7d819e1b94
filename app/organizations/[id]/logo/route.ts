// GET /organizations/<id>/logo: an organization's logo, as shown on its credentials' wallet pages.
import { idParams } from "@/lib/api/endpoint";
import { publicEndpoint } from "@/lib/api/public-endpoint";
import { organizationLogo } from "@/lib/organizations/service";

export const GET = publicEndpoint({ params: idParams }, async ({ params }) => {
  const logo = await organizationLogo(params.id);
  return new Response(new Uint8Array(logo.data), { headers: { "Content-Type": logo.mimeType, "Cache-Control": "public, max-age=300" } });
});
