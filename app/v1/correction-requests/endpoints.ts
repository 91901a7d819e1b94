import { z } from "zod";
import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { paginationQuery } from "@/lib/core/pagination";
import { CorrectionListQuery, CorrectionRequestResponse } from "@/lib/corrections/schema";
import { listCorrectionRequests } from "@/lib/corrections/service";

export const correctionRequestsRoute = defineRoute("/v1/correction-requests", {
  GET: endpoint({
    tag: "Name corrections",
    summary: "List name correction requests, newest first",
    description:
      "Requests recipients made from their wallet to correct the name on one of your credentials. `status` keeps only `open`, `approved` or `rejected` ones; without it, all. `resolution` is the rejection reason, null otherwise.",
    query: z.strictObject({ ...paginationQuery, ...CorrectionListQuery }),
    success: { status: 200, description: "A page of correction requests", schema: pageOf(CorrectionRequestResponse) },
    handle: async ({ caller, query }) => ({ status: 200, body: await listCorrectionRequests(caller.organization, query) }),
  }),
});
