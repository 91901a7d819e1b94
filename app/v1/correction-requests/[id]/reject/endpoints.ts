import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CorrectionRequestResponse, RejectCorrectionBody } from "@/lib/corrections/schema";
import { rejectCorrectionRequest } from "@/lib/corrections/service";

export const rejectCorrectionRoute = defineRoute("/v1/correction-requests/{id}/reject", {
  POST: endpoint({
    params: idParams,
    tag: "Name corrections",
    summary: "Reject a name correction request",
    description:
      "`reason` (required, one line, 1 to 500 characters) becomes the request's `resolution` and is emailed to the recipient. The credential is not changed. A request already resolved is 409 `conflict`.",
    body: RejectCorrectionBody,
    success: { status: 200, description: "The rejected request", schema: CorrectionRequestResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params, body }) => ({
      status: 200,
      body: await rejectCorrectionRequest(caller.organization, params.id, body),
    }),
  }),
});
