import { z } from "zod";
import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { credentialDesigns } from "@/lib/previews/credential-designs";

const CredentialDesignResponse = z.object({
  id: z.string(),
  name: z.string(),
  previews: z.array(z.object({ format: z.enum(["png", "pdf"]), url: z.string() })),
});

export const credentialDesignsRoute = defineRoute("/v1/credentials/{id}/designs", {
  GET: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "The credential's designs with PNG and PDF preview URLs",
    description:
      "In the order the credential's group uses them. Preview URLs are immutable and digest-versioned: after a change to the design or to an attribute it shows, fetch this again for the new URL; old URLs keep their old rendering.",
    success: { status: 200, description: "The designs", schema: z.array(CredentialDesignResponse) },
    errors: ["not_found"],
    handle: async ({ caller, params }) => ({ status: 200, body: await credentialDesigns(caller.organization, params.id) }),
  }),
});
