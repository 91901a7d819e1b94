// GET /organizations/<slug>/achievements/<groupId>: the Open Badges Achievement that a credential's
// `credentialSubject.achievement.id` names, so the URI resolves (public once the group has a public
// credential). The segment is named `id` because the logo route owns that level's name; here it holds
// the slug, like did.json.
import { z } from "zod";
import { jsonDocumentResponse } from "@/lib/api/document-response";
import { publicEndpoint, readOnlyRoute } from "@/lib/api/public-endpoint";
import { organizationSlug } from "@/lib/organizations/schema";
import { publicAchievement } from "@/lib/verifiable/service";

// A group's texts can change; five minutes bounds how long a reader may see the old ones.
const CACHE_CONTROL = "public, max-age=300";

const params = z.strictObject({ id: organizationSlug, groupId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

export const GET = publicEndpoint({ params }, async ({ request, params }) =>
  jsonDocumentResponse(request, await publicAchievement(params.id, params.groupId), CACHE_CONTROL),
);

export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();
