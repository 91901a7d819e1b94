// POST /organizations/<slug>/oid4vci/token: the OAuth token endpoint (pre-authorized code grant).
import { OID4VCI_RATE_LIMIT, oid4vciEndpoint, oid4vciPreflight } from "@/lib/api/oid4vci-endpoint";
import { readBody } from "@/lib/api/endpoint";
import { Oauth2ServerErrorResponseError } from "@openid4vc/oauth2";
import { redeemPreAuthorizedCode } from "@/lib/oid4vci/service";

const MAX_FORM_BYTES = 8192;

/** The form body (application/x-www-form-urlencoded, RFC 6749); a parameter sent twice is refused. */
function formParameters(text: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(form, name)) {
      throw new Oauth2ServerErrorResponseError({
        error: "invalid_request",
        error_description: `The parameter ${name} is sent more than once.`,
      });
    }
    form[name] = value;
  }
  return form;
}

export const POST = oid4vciEndpoint({ rateLimit: OID4VCI_RATE_LIMIT }, async ({ request, params }) => {
  const form = formParameters(await readBody(request, MAX_FORM_BYTES));
  const requestLike = { headers: request.headers, method: "POST" as const, url: request.url };
  return { status: 200, body: await redeemPreAuthorizedCode(params.id, requestLike, form) };
});
export const OPTIONS = oid4vciPreflight;
