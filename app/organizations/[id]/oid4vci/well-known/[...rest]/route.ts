// Any other /organizations/<slug>/.well-known/<name> (next.config.mjs rewrites them here): a 404 in the
// JSON envelope rather than the HTML not-found page. Wallet apps probe such addresses (an OpenID
// Connect configuration before the OAuth one) and some read every answer as JSON.
import { z } from "zod";
import { notFound } from "@/lib/core/errors";
import { publicEndpoint } from "@/lib/api/public-endpoint";

const refuse = publicEndpoint({ params: z.object({ id: z.string(), rest: z.string() }) }, async () => {
  throw notFound("Metadata document");
});

export { refuse as GET, refuse as POST };
