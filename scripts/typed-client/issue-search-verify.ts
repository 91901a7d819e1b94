// A client generated from the OpenAPI document, used the way an integration would: create a group with
// a certificate design, create-issue-send a credential, find it with a search, fetch its signed Open
// Badges 3.0 document and have the service verify it. Every /v1 call is typed by openapi-fetch from
// openapi-types.d.ts (`npm run openapi:types`): a path, body or field the document lacks does not compile.
//
//   CIS_URL=http://localhost:3000 CIS_TOKEN=... npx tsx scripts/typed-client/issue-search-verify.ts ada@example.com
//
// It sends the version as `Certifier-Version`, as clients written for the hosted API do.
import path from "node:path";
import { fileURLToPath } from "node:url";
import createClient from "openapi-fetch";
import type { paths } from "./openapi-types";

export const API_VERSION = "2022-10-26";

export type SampleOptions = {
  baseUrl: string;
  token: string;
  recipient: { name: string; email: string };
  /** Extra headers on every request (a TLS proxy's `X-Forwarded-Proto`, a request id). */
  headers?: Record<string, string>;
  /** The fetch every request goes through (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
};

export type SampleResult = {
  credentialId: string;
  status: string;
  foundBySearch: boolean;
  verdict: string;
};

function typedClient(options: SampleOptions) {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.token}`, "Certifier-Version": API_VERSION, ...options.headers },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The data of a successful answer; the error envelope's code and message otherwise. */
function dataOf<D, E>(step: string, result: { data?: D; error?: E; response: Response }): D {
  if (result.data === undefined) {
    const error = (result.error as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new Error(`${step}: ${result.response.status} ${error?.code ?? ""} ${error?.message ?? ""}`.trim());
  }
  return result.data;
}

export async function issueSearchAndVerify(options: SampleOptions): Promise<SampleResult> {
  const api = typedClient(options);

  const design = dataOf("create a design", await api.POST("/v1/designs", { body: { name: "Sample certificate", type: "certificate" } }));
  const group = dataOf("create a group", await api.POST("/v1/groups", { body: { name: "Typed client sample", designIds: [design.id] } }));
  const credential = dataOf(
    "create, issue and send",
    await api.POST("/v1/credentials/create-issue-send", { body: { groupId: group.id, recipient: options.recipient } }),
  );

  const page = dataOf(
    "search",
    await api.POST("/v1/credentials/search", { body: { filter: { recipient: { email: options.recipient.email } }, limit: 10 } }),
  );
  const foundBySearch = page.data.some((found) => found.id === credential.id);

  const signed = dataOf(
    "its verifiable credential",
    await api.GET("/v1/credentials/{id}/verifiable-credential", { params: { path: { id: credential.id } } }),
  );

  // The public verifier is not part of the /v1 document: a plain JSON POST.
  const fetchVia = options.fetch ?? ((request: Request) => fetch(request));
  const answer = await fetchVia(
    new Request(new URL("/api/verify", options.baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...options.headers },
      body: JSON.stringify({ credential: signed }),
    }),
  );
  if (!answer.ok) throw new Error(`verify: ${answer.status}`);
  const report = (await answer.json()) as { verdict: string };

  return { credentialId: credential.id, status: credential.status, foundBySearch, verdict: report.verdict };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const email = process.argv[2] ?? "ada@example.com";
  const result = await issueSearchAndVerify({
    baseUrl: process.env.CIS_URL ?? "http://localhost:3000",
    token: process.env.CIS_TOKEN ?? "",
    recipient: { name: "Ada Lovelace", email },
  });
  console.log(JSON.stringify(result, null, 2));
}
