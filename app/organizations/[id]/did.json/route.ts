// GET /organizations/<slug>/did.json: the organization's did:web DID document (its credential-signing
// keys, current and retired). The segment is named `id` because Next wants one name per level and the
// logo route owns it; here it holds the slug, as the did:web path requires.
import { z } from "zod";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { organizationSlug } from "@/lib/organizations/schema";
import { organizationDidDocument } from "@/lib/issuers/service";

// Verifiers fetch this for every credential they check; short caching spares us, and a rotation is
// visible within a minute.
const CACHE_CONTROL = "public, max-age=60";

export const GET = publicEndpoint({ params: z.strictObject({ id: organizationSlug }) }, async ({ params }) => {
  const document = await organizationDidDocument(params.id);
  return new Response(JSON.stringify(document), { headers: { "Content-Type": "application/did+json", "Cache-Control": CACHE_CONTROL } });
});

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
