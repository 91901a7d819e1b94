// Fetching a JSON document a credential points at (a did:web DID document, a status list credential)
// or a URL a user pasted: always through lib/net (public addresses only, no redirects, a deadline, a
// size cap), always JSON, and every failure a sentence a user can read.
import { JsonTooDeepError, parseUntrustedJson } from "../core/json-text";
import { OutboundRequestError, outboundRequest } from "../net/outbound-request";

export class RemoteDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RemoteDocumentError";
  }
}

/** A verification waits this long for another server, at most, per document. */
export const REMOTE_TIMEOUT_MS = 5000;

const JSON_TYPES = /^application\/([a-z.+-]*\+)?json\b/i;

/** The JSON text at `url` (200, a JSON media type, at most `maxBytes`). */
export async function fetchJsonText(url: string, maxBytes: number): Promise<string> {
  let response;
  try {
    response = await outboundRequest(url, {
      method: "GET",
      headers: { accept: "application/ld+json, application/did+json, application/vc+ld+json, application/json;q=0.9" },
      timeoutMs: REMOTE_TIMEOUT_MS,
      maxResponseBytes: maxBytes,
    });
  } catch (error) {
    if (error instanceof OutboundRequestError) throw new RemoteDocumentError(`${url} could not be fetched: ${error.message}.`);
    throw error;
  }
  if (response.status >= 300 && response.status < 400)
    throw new RemoteDocumentError(`${url} answered with a redirect (${response.status}), which is not followed.`);
  if (response.status !== 200) throw new RemoteDocumentError(`${url} answered ${response.status}.`);
  const type = String(response.headers["content-type"] ?? "");
  if (!JSON_TYPES.test(type)) throw new RemoteDocumentError(`${url} did not answer with JSON (Content-Type ${type || "missing"}).`);
  return response.body.toString("utf8");
}

/** The JSON object at `url`. */
export async function fetchJsonObject(url: string, maxBytes: number): Promise<Record<string, unknown>> {
  const body = await fetchJsonText(url, maxBytes);
  let parsed: unknown;
  try {
    parsed = parseUntrustedJson(body);
  } catch (error) {
    if (error instanceof JsonTooDeepError) throw new RemoteDocumentError(`${url} answered with JSON that ${error.message}.`);
    throw new RemoteDocumentError(`${url} did not answer with valid JSON.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new RemoteDocumentError(`${url} did not answer with a JSON object.`);
  return parsed as Record<string, unknown>;
}
