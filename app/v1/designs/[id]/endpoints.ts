import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { DesignResponse, UpdateDesignBody } from "@/lib/designs/schema";
import { getDesign, updateDesign } from "@/lib/designs/service";

export const designRoute = defineRoute("/v1/designs/{id}", {
  GET: endpoint({
    params: idParams,
    tag: "Designs",
    summary: "Get a design template",
    success: { status: 200, description: "The design", schema: DesignResponse },
    errors: ["not_found"],
    handle: async ({ caller, params }) => ({ status: 200, body: await getDesign(caller.organization, params.id) }),
  }),
  PATCH: endpoint({
    params: idParams,
    tag: "Designs",
    summary: "Update a design template",
    description:
      "A new `document` or changed `assets` make a new revision: preview URLs of this design change. `assets` entries set to null are removed.",
    body: UpdateDesignBody,
    success: { status: 200, description: "The design", schema: DesignResponse },
    errors: ["not_found"],
    handle: async ({ caller, params, body }) => ({ status: 200, body: await updateDesign(caller.organization, params.id, body) }),
  }),
});
