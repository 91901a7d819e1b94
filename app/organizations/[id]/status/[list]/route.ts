// GET /organizations/<slug>/status/<number>: one of the organization's signed revocation status lists
// (Bitstring Status List v1.0), which its credentials' credentialStatus entries point at. The segment
// is named `id` because the logo route owns that level's name; here it holds the slug, like did.json.
import { z } from "zod";
import { jsonDocumentResponse } from "@/lib/api/document-response";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { organizationSlug } from "@/lib/organizations/schema";
import { statusListCredential } from "@/lib/verifiable/service";

// Verifiers fetch this for every credential they check. A revocation shows here on the next request;
// a minute of caching bounds how long a verifier may go on seeing the old bit (a status list may be cached for at most 300 s).
const CACHE_CONTROL = "public, max-age=60";

const params = z.strictObject({
  id: organizationSlug,
  list: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/)
    .transform(Number),
});

export const GET = publicEndpoint({ params }, async ({ request, params }) =>
  jsonDocumentResponse(request, await statusListCredential(params.id, params.list), CACHE_CONTROL),
);

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
