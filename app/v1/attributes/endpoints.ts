import { z } from "zod";
import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { AttributeResponse, CreateAttributeBody } from "@/lib/attributes/schema";
import { defineAttribute, listAttributes } from "@/lib/attributes/service";

export const attributesRoute = defineRoute("/v1/attributes", {
  GET: endpoint({
    tag: "Attributes",
    summary: "List the attributes designs and email templates can use",
    description:
      "A bare array, not a page: the built-in attributes first, then the organization's `custom.<tag>` attributes by tag. " +
      "A custom attribute exists once it is defined (POST) or used by a design, an email template or a credential; " +
      "an attribute only used is named by its tag without `custom.`.",
    success: { status: 200, description: "Every attribute", schema: z.array(AttributeResponse) },
    handle: async ({ caller }) => ({ status: 200, body: await listAttributes(caller.organization.id) }),
  }),
  POST: endpoint({
    tag: "Attributes",
    summary: "Define a custom attribute",
    description:
      "A tag the organization already has, defined or used by a design, an email template or a credential, is a `validation_error` on `tag`, and the attribute keeps its name.",
    body: CreateAttributeBody,
    success: { status: 201, description: "The attribute", schema: AttributeResponse },
    handle: async ({ caller, body }) => ({ status: 201, body: await defineAttribute(caller.organization.id, body) }),
  }),
});
