import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { CredentialResponse } from "@/lib/credentials/schema";
import { SearchCredentialsBody } from "@/lib/search/schema";
import { searchCredentials } from "@/lib/search/service";

export const searchRoute = defineRoute("/v1/credentials/search", {
  POST: endpoint({
    tag: "Credentials",
    summary: "Search credentials",
    description:
      "Filter with a small language (fields, operators, `AND`/`OR`/`NOT`), sort by `id`, `createdAt`, `updatedAt`, `issueDate` or `expiryDate`, and walk pages with keyset cursors: walking `next` to the end returns every match exactly once, even while credentials are being created. Status matches what reads show (`expired` once the expiry date has passed).",
    body: SearchCredentialsBody,
    success: { status: 200, description: "A page of matching credentials", schema: pageOf(CredentialResponse) },
    handle: async ({ caller, body }) => ({ status: 200, body: await searchCredentials(caller.organization, body) }),
  }),
});
