// The typed client generated from the OpenAPI document (scripts/typed-client: openapi-typescript types,
// openapi-fetch) runs its sample against the server: create-issue-send, search, the signed document and
// its verification. Its requests go through the same OpenAPI conformance check as every API spec's.
import { test, expect } from "../fixtures";
import { issueSearchAndVerify } from "../../scripts/typed-client/issue-search-verify";

test("the typed client's sample issues, finds and verifies a credential", async ({ org, server, openApiConformance }) => {
  const conformance = await openApiConformance();
  const problems: string[] = [];
  const checkedFetch = async (request: Request) => {
    const method = request.method;
    const response = await fetch(request);
    const body = Buffer.from(await response.clone().arrayBuffer());
    const headers = Object.fromEntries(response.headers);
    problems.push(
      ...(await conformance.problems(method, {
        url: () => response.url,
        status: () => response.status,
        headers: () => headers,
        body: async () => body,
      })),
    );
    return response;
  };
  const email = `typed-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  const result = await issueSearchAndVerify({
    baseUrl: server.baseURL,
    token: org.token,
    recipient: { name: "Ada Lovelace", email },
    headers: { "X-Forwarded-Proto": "https" },
    fetch: checkedFetch,
  });

  expect(result).toMatchObject({ status: "issued", foundBySearch: true, verdict: "valid" });
  expect(problems).toEqual([]);
});
