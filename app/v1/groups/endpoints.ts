import { z } from "zod";
import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { paginationQuery } from "@/lib/core/pagination";
import { CreateGroupBody, GroupResponse } from "@/lib/groups/schema";
import { createGroup, listGroups } from "@/lib/groups/service";

export const groupsRoute = defineRoute("/v1/groups", {
  GET: endpoint({
    tag: "Groups",
    summary: "List credential templates (groups), newest first",
    query: z.strictObject(paginationQuery),
    success: { status: 200, description: "A page of groups", schema: pageOf(GroupResponse) },
    handle: async ({ caller, query }) => ({ status: 200, body: await listGroups(caller.organization.id, query) }),
  }),
  POST: endpoint({
    tag: "Groups",
    summary: "Create a credential template (group)",
    description: "Send either `designIds` or the deprecated `certificateDesignId` / `badgeDesignId`, not both.",
    body: CreateGroupBody,
    success: { status: 201, description: "The group", schema: GroupResponse },
    handle: async ({ caller, body }) => ({ status: 201, body: await createGroup(caller.organization.id, body) }),
  }),
});
