import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { GroupResponse, UpdateGroupBody } from "@/lib/groups/schema";
import { deleteGroup, getGroup, updateGroup } from "@/lib/groups/service";

export const groupRoute = defineRoute("/v1/groups/{id}", {
  GET: endpoint({
    params: idParams,
    tag: "Groups",
    summary: "Get a group",
    success: { status: 200, description: "The group", schema: GroupResponse },
    errors: ["not_found"],
    handle: async ({ caller, params }) => ({ status: 200, body: await getGroup(caller.organization.id, params.id) }),
  }),
  PATCH: endpoint({
    params: idParams,
    tag: "Groups",
    summary: "Update a group",
    description: "Fields not sent are left unchanged. `designIds` replaces the whole ordered list.",
    body: UpdateGroupBody,
    success: { status: 200, description: "The group", schema: GroupResponse },
    errors: ["not_found"],
    handle: async ({ caller, params, body }) => ({ status: 200, body: await updateGroup(caller.organization.id, params.id, body) }),
  }),
  DELETE: endpoint({
    params: idParams,
    tag: "Groups",
    summary: "Delete a group no credential uses",
    description: "A group that credentials use is a `conflict` (409) whose message says how many; nothing is deleted then.",
    success: { status: 204, description: "Deleted, with its design links" },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params }) => {
      await deleteGroup(caller.organization.id, params.id);
      return { status: 204 };
    },
  }),
});
