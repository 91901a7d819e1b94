import { z } from "zod";
import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { paginationQuery } from "@/lib/core/pagination";
import { CreateDesignBody, DesignResponse } from "@/lib/designs/schema";
import { createDesign, listDesigns } from "@/lib/designs/service";

export const designsRoute = defineRoute("/v1/designs", {
  GET: endpoint({
    tag: "Designs",
    summary: "List design templates, newest first",
    query: z.strictObject(paginationQuery),
    success: { status: 200, description: "A page of designs", schema: pageOf(DesignResponse) },
    handle: async ({ caller, query }) => ({ status: 200, body: await listDesigns(caller.organization, query) }),
  }),
  POST: endpoint({
    tag: "Designs",
    summary: "Create a design template",
    description: "Without `document`, the design starts from a default layout for its type. `assets` maps names to PNG or JPEG data URIs.",
    body: CreateDesignBody,
    success: { status: 201, description: "The design", schema: DesignResponse },
    handle: async ({ caller, body }) => ({ status: 201, body: await createDesign(caller.organization, body) }),
  }),
});
