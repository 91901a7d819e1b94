// POST /api/wallet/verify {publicId, triggeredBy}: re-checks the credential now and records the check.
import { publicJsonEndpoint } from "@/lib/api/public-endpoint";
import { verifyCredential, VerifyBody } from "@/lib/wallet/verify";

export const POST = publicJsonEndpoint(VerifyBody, async (body) => ({ status: 200, body: await verifyCredential(body) }));
