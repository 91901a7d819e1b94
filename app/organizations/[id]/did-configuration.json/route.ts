// GET /organizations/<slug>/did-configuration.json: the DIF Well-Known DID Configuration an
// organization with a verified domain publishes at https://<domain>/.well-known/did-configuration.json
// (lib/verifiable/did-configuration.ts); 404 without a verified domain. The segment is named `id`
// because the logo route owns that level's name; here it holds the slug, like did.json.
import { z } from "zod";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { organizationSlug } from "@/lib/organizations/schema";
import { didConfiguration } from "@/lib/verifiable/did-configuration";

// Signed on each request (a few milliseconds); a few minutes of caching is plenty for a file that is
// downloaded to be published elsewhere.
const CACHE_CONTROL = "public, max-age=300";

export const GET = publicEndpoint({ params: z.strictObject({ id: organizationSlug }) }, async ({ params }) => {
  const { document } = await didConfiguration(params.id);
  return new Response(JSON.stringify(document), { headers: { "Content-Type": "application/json", "Cache-Control": CACHE_CONTROL } });
});

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
