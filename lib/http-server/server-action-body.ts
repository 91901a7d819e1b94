// Server action arguments, checked before Next decodes them. React revives an action's arguments
// recursively (decodeReply), before any of our code runs, so a deeply nested argument overflows the call
// stack inside Next (a 500 and error-level log lines) or reaches the action as a nonsense value. Every
// other JSON input of the service is limited in depth by a scan of its raw text (lib/core/json-text.ts);
// this module applies the same limit to the body of a request that may run a server action, then hands
// Next a request that replays the very same bytes.
import { IncomingMessage, type ServerResponse } from "node:http";
import { ApiError } from "../core/errors";
import { jsonDepthExcess, type JsonTooDeepError } from "../core/json-text";
import { log } from "../log";
import { requestIdHeader, sendApiError } from "./answers";
import { mayRunServerAction } from "./server-action-origin";

/**
 * The largest server action body, in bytes: next.config.mjs's serverActions.bodySizeLimit ("6mb", which
 * Next reads as 6 MiB; a unit test keeps the two equal). Next refuses a larger body itself, but only
 * after this server would have buffered it.
 */
export const SERVER_ACTION_BODY_LIMIT = 6 * 1024 * 1024;

/**
 * How Next will decode the body, by the same tests Next makes: a multipart form (fields, some of them
 * JSON), or with a Next-Action header any other body as one JSON text. URL-encoded forms are never run
 * as actions, so they are not read here.
 */
export function actionBodyKind(contentType: string | undefined, hasActionHeader: boolean): "multipart" | "text" | null {
  if (contentType?.startsWith("multipart/form-data")) return "multipart";
  if (contentType === "application/x-www-form-urlencoded" || !hasActionHeader) return null;
  return "text";
}

export type BodyVerdict = { ok: true } | { ok: false; tooDeep: JsonTooDeepError; field: string | null } | { ok: false; unreadable: true };

/**
 * Whether a server action body nests within the JSON depth limit. A multipart body is parsed with the
 * platform's own form parser and every text field is scanned (the argument rows are JSON, and a
 * form's own fields are plain text that has no reason to nest a hundred brackets deep); files are
 * left alone. A text body is scanned whole.
 */
export async function checkActionBody(body: Buffer, contentType: string | undefined, kind: "multipart" | "text"): Promise<BodyVerdict> {
  if (kind === "text") {
    const tooDeep = jsonDepthExcess(body.toString("utf8"));
    return tooDeep ? { ok: false, tooDeep, field: null } : { ok: true };
  }
  let form: FormData;
  try {
    form = await new Request("http://server-action.invalid/", {
      method: "POST",
      headers: { "content-type": contentType ?? "" },
      body: new Uint8Array(body),
    }).formData();
  } catch {
    return { ok: false, unreadable: true };
  }
  for (const [name, value] of form) {
    if (typeof value !== "string") continue;
    const tooDeep = jsonDepthExcess(value);
    if (tooDeep) return { ok: false, tooDeep, field: name };
  }
  return { ok: true };
}

/**
 * The whole body, or null as soon as it exceeds `limit` bytes (then the rest is left unread: the
 * answer closes the connection, see unread-body.ts). Rejects when the client leaves before the end.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      stop();
      reject(new Error("the connection closed before the request's body arrived in full"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/**
 * A request for Next with the same method, target, headers and connection as `req`, whose body replays
 * `body` (the original's stream has been read to its end and cannot be read again).
 */
export function replayedRequest(req: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  replay.headers = req.headers;
  replay.rawHeaders = req.rawHeaders;
  replay.trailers = req.trailers;
  replay.rawTrailers = req.rawTrailers;
  if (body.length > 0) replay.push(body);
  replay.push(null);
  replay.complete = true;
  return replay;
}

function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  error: ApiError,
  event: string,
  fields: Record<string, unknown> = {},
): null {
  sendApiError(req, res, error);
  log.warn(event, { requestId: requestIdHeader(req), method: req.method, path, status: error.status, ...fields });
  return null;
}

/**
 * The request to hand Next: `req` itself when it cannot run a server action, a replay of its body
 * when the body passed the checks, or null when it was refused here (answered and logged: 413 for a
 * body over the limit, 400 for one nested too deeply or not readable as a form).
 */
export async function screenServerActionBody(req: IncomingMessage, res: ServerResponse, path: string): Promise<IncomingMessage | null> {
  if (!mayRunServerAction(req, path)) return req;
  const contentType = req.headers["content-type"];
  const kind = actionBodyKind(contentType, req.headers["next-action"] !== undefined);
  if (kind === null) return req;
  const tooLarge = new ApiError("payload_too_large", `A form's data may be at most ${SERVER_ACTION_BODY_LIMIT / (1024 * 1024)} MiB.`);
  if (Number(req.headers["content-length"] ?? 0) > SERVER_ACTION_BODY_LIMIT)
    return refuse(req, res, path, tooLarge, "server_action_too_large");
  const body = await readBody(req, SERVER_ACTION_BODY_LIMIT);
  if (body === null) return refuse(req, res, path, tooLarge, "server_action_too_large");
  const verdict = await checkActionBody(body, contentType, kind);
  if (verdict.ok) return replayedRequest(req, body);
  if ("unreadable" in verdict) {
    return refuse(
      req,
      res,
      path,
      new ApiError("bad_request", "The form's data is not valid multipart/form-data."),
      "server_action_unreadable",
    );
  }
  const where = verdict.field === null ? "(body)" : verdict.field;
  const error = new ApiError("validation_error", `The form's data ${verdict.tooDeep.message}.`, {
    details: [{ path: where, message: verdict.tooDeep.message }],
  });
  return refuse(req, res, path, error, "server_action_too_deep", { field: where.slice(0, 100) });
}
