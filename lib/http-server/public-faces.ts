// The public faces served from memory: a credential's wallet page and credential.json, an
// organization's status lists, DID document, OpenID4VCI issuer metadata, DID configuration and
// profile page, and a recipient's public profile. They are what a shared link, a QR scan and every verifier open, so a
// post that does well sends hundreds of requests a second to one of them.
//
// Each answer is still made by its Next page or route, the one place that knows what it shows; this
// module keeps what that made and answers the same bytes again while nothing it was built from has
// changed. Before every answer it reads the face's version with one indexed query
// (lib/public-faces/versions.ts) and works out the rest of the key: the language the page will be in
// (computed by the same function the page uses) and who is looking (a guest, or the signed-in wallet
// session, whose own view is never answered to anybody else). A revocation, an edit, a deletion or a
// privacy change made by any process is therefore seen by the very next request of every process,
// with no notice to wait for or to lose; entries of old versions just age out of the bounded cache.
//
// Left to Next, untouched: every other method, conditional requests it must answer itself, Next's own
// navigation requests (RSC), queries the page might read, 404s, a private credential to anyone but its
// recipient, and any answer that sets a cookie or is not a 200.
//
// Pages carry this response's Content-Security-Policy nonce on their script tags: a kept page is
// split where its nonce was, and each answer gets the fresh nonce its own policy header names, so a
// nonce is never used twice. That is also why pages get no ETag (a browser's kept copy would carry an
// old nonce) while documents do, with 304 for a client that already has them.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { RenderedCache, type CacheKey } from "../public-cache/rendered-cache";
import { processSingleton } from "../core/process-singleton";
import {
  credentialDocumentVersion,
  issuerProfileVersion,
  organizationDocumentsVersion,
  publicProfileVersion,
  statusListVersion,
  walletPageVersion,
} from "../public-faces/versions";
import { DEFAULT_LOCALE } from "../i18n/locales";
import { pageLanguageKey } from "../public-faces/page-locale";
import { isIgnoredPageParameter, withoutIgnoredParameters } from "../public-faces/page-parameters";
import { RAW_QUERY_HEADER, rawQueryOf } from "../api/request-target";
import { walletSessionForToken, walletTokenFromHeaders } from "../wallet/session";
import { log } from "../log";
import { webHeadersOf } from "./api-routes";
import { compressBody, endCoded, endWithBody, mayCompress, preferredCoding, varyOnAcceptEncoding, type ContentCoding } from "./compression";

/** One kept answer: its status, Next's headers and body (a page's split where its nonce was). */
type KeptAnswer = {
  status: number;
  headers: [string, string][];
  /** The body; for a page, the pieces between the places its nonce stood (joined with each answer's own nonce). */
  parts: Buffer[];
  /** Documents only: a strong validator of the bytes. */
  etag: string | null;
  /**
   * Documents only: the body in each coding, made once when it is kept (a page carries each answer's
   * own nonce, so it is compressed per answer); empty when it is not worth compressing.
   */
  coded: Partial<Record<ContentCoding, Buffer>>;
  /** What it holds in memory, all codings included. */
  bytes: number;
};

/** Bounds of the process's cache: enough for the pages and documents a busy day opens, far below the heap. */
const LIMITS = { maxEntries: 5_000, maxBytes: 64 * 1024 * 1024 };
/** An answer larger than this is not kept (no face is near it; a runaway render should not fill the cache). */
const MAX_KEPT_BYTES = 2 * 1024 * 1024;

export function publicFacesCache(): RenderedCache<KeptAnswer> {
  return processSingleton("http-server.publicFaces", () => new RenderedCache<KeptAnswer>(LIMITS, (a) => a.bytes));
}

type Face = {
  kind: string;
  id: string;
  /** Pages carry a nonce and get no ETag; documents get an ETag and 304. */
  page: boolean;
  /**
   * The rest of the key, or null: let Next answer this one (unknown, hidden, not a 200 to cache). A
   * page's key also says the Content-Language its render must announce to be kept.
   */
  key: (req: IncomingMessage) => Promise<(Omit<CacheKey, "kind" | "id"> & { contentLanguage?: string }) | null>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const HANDLE = /^[a-z0-9-]{3,40}$/;

/** Headers of Next's own requests (client navigation, prefetch, server actions): answered by Next. */
const NEXT_REQUEST_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action"];

function headerText(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Who is looking at a credential's page: a guest, its signed-in recipient, or someone signed in to the
 * wallet as another email (today that view is the guest's, but it is kept apart per session email so
 * that a page which one day greets the signed-in reader can never show one reader's view to another).
 * Null: a private credential and not its recipient (Next answers the 404).
 */
async function credentialViewer(
  req: IncomingMessage,
  found: { visibility: string; recipientEmail: string | null },
): Promise<string | null> {
  const token = walletTokenFromHeaders(webHeadersOf(req));
  const session = token ? await walletSessionForToken(token) : null;
  const recipient = session !== null && found.recipientEmail !== null && session.email === found.recipientEmail;
  if (found.visibility === "private" && !recipient) return null;
  if (session === null) return "guest";
  return recipient ? `recipient:${session.email}` : `signed-in:${session.email}`;
}

/** The face a request names, or null when it names none this cache answers. */
export function publicFaceOf(req: IncomingMessage, path: string): Face | null {
  if (req.method !== "GET") return null;
  if (NEXT_REQUEST_HEADERS.some((name) => req.headers[name] !== undefined)) return null;
  const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
  const queryIgnored = [...query.keys()].every(isIgnoredPageParameter);
  const noQuery = [...query.keys()].length === 0;
  const segments = path.split("/");

  // /credentials/<publicId> and /credentials/<publicId>/credential.json
  if (segments[1] === "credentials" && UUID.test(segments[2] ?? "")) {
    const publicId = segments[2]!;
    if (segments.length === 3 && queryIgnored) {
      return {
        kind: "wallet-page",
        id: publicId,
        page: true,
        key: async (r) => {
          const found = await walletPageVersion(publicId);
          if (!found) return null;
          const viewer = await credentialViewer(r, found);
          if (viewer === null) return null;
          const language = pageLanguageKey(found.language, headerText(r, "cookie"), headerText(r, "accept-language"));
          return { version: found.version, locale: language.key, viewer, contentLanguage: language.locale };
        },
      };
    }
    if (segments.length === 4 && segments[3] === "credential.json" && noQuery) {
      return {
        kind: "credential.json",
        id: publicId,
        page: false,
        key: async () => {
          const found = await credentialDocumentVersion(publicId);
          // A private credential's document is its recipient's alone, answered by the route with no-store.
          if (!found || found.visibility === "private") return null;
          return { version: found.version, locale: "", viewer: "anyone" };
        },
      };
    }
    return null;
  }

  // /organizations/<slug>/did.json, /did-configuration.json, /status/<n>, and the OpenID4VCI metadata
  // at /.well-known/openid-credential-issuer/organizations/<slug> (next.config.mjs rewrites it).
  const organizationDocument = (slug: string, kind: string): Face => ({
    kind,
    id: slug,
    page: false,
    key: async () => {
      const version = await organizationDocumentsVersion(slug);
      return version === null ? null : { version, locale: "", viewer: "anyone" };
    },
  });
  if (segments[1] === "organizations" && segments.length === 3 && SLUG.test(segments[2]!) && queryIgnored) {
    // The issuer's profile page: the same for every reader.
    const slug = segments[2]!;
    return {
      kind: "issuer-page",
      id: slug,
      page: true,
      key: async () => {
        const version = await issuerProfileVersion(slug);
        // The page is in English for every reader (app/document-locale.ts): one key whatever the visitor's language.
        return version === null ? null : { version, locale: DEFAULT_LOCALE, viewer: "anyone", contentLanguage: DEFAULT_LOCALE };
      },
    };
  }
  if (!noQuery) return null;
  if (segments[1] === "organizations" && SLUG.test(segments[2] ?? "")) {
    const slug = segments[2]!;
    if (segments.length === 4 && segments[3] === "did.json") return organizationDocument(slug, "did.json");
    if (segments.length === 4 && segments[3] === "did-configuration.json") return organizationDocument(slug, "did-configuration.json");
    if (segments.length === 5 && segments[3] === "status" && /^[1-9][0-9]{0,8}$/.test(segments[4]!)) {
      const list = Number(segments[4]);
      return {
        kind: "status-list",
        id: `${slug}/${list}`,
        page: false,
        key: async () => {
          const version = await statusListVersion(slug, list);
          return version === null ? null : { version, locale: "", viewer: "anyone" };
        },
      };
    }
    return null;
  }
  if (path.startsWith("/.well-known/openid-credential-issuer/organizations/") && segments.length === 5 && SLUG.test(segments[4]!)) {
    return organizationDocument(segments[4]!, "oid4vci-metadata");
  }
  if (segments[1] === "profiles" && segments.length === 3 && HANDLE.test(segments[2]!)) {
    const handle = segments[2]!;
    return {
      kind: "profile-page",
      id: handle,
      page: true,
      key: async (r) => {
        const version = await publicProfileVersion(handle);
        if (version === null) return null;
        const language = pageLanguageKey(null, headerText(r, "cookie"), headerText(r, "accept-language"));
        return { version, locale: language.key, viewer: "anyone", contentLanguage: language.locale };
      },
    };
  }
  return null;
}

/** Headers of Next's answer that are not kept: this server sets them per response, or Node does. */
const PER_RESPONSE_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "content-encoding",
  "x-request-id",
  "content-security-policy",
  "referrer-policy",
  "x-content-type-options",
  "x-frame-options",
  "strict-transport-security",
]);

/**
 * Lets Next answer this request as usual while copying what it sends; the copy is kept when it is a
 * complete 200 without a cookie. Next is asked for the plain bytes (no compression, no 304), so the
 * copy can be answered to any client.
 */
function renderThroughNext(
  req: IncomingMessage,
  res: ServerResponse,
  face: Face,
  nonce: string,
  contentLanguage: string | undefined,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  version: string,
): Promise<KeptAnswer | null> {
  if (face.page) {
    // A kept page is answered to every link that differs only in the parameters pages ignore: render it
    // without them, so nothing of one visitor's link (the recipient's mark, a click id) can be in it.
    const query = withoutIgnoredParameters(rawQueryOf(req.url)).toString();
    req.headers[RAW_QUERY_HEADER] = query;
    req.url = `${(req.url ?? "").split("?")[0]}${query ? `?${query}` : ""}`;
  }
  delete req.headers["accept-encoding"];
  delete req.headers["if-none-match"];
  delete req.headers["if-modified-since"];
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const copy = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || tooLarge) return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    size += buffer.length;
    if (size > MAX_KEPT_BYTES) tooLarge = true;
    else chunks.push(buffer);
  };
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    copy(chunk, encoding);
    return write(chunk, encoding, callback);
  }) as ServerResponse["write"];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    copy(chunk, encoding);
    return end(chunk, encoding, callback);
  }) as ServerResponse["end"];

  return new Promise<KeptAnswer | null>((resolve, reject) => {
    let finished = false;
    res.once("finish", () => {
      finished = true;
      if (tooLarge || res.statusCode !== 200 || res.getHeader("set-cookie") !== undefined) return resolve(null);
      // The key said which language the page would be in; a page that chose another (a reading of the
      // request the key's rule missed) is not kept, so it can never be answered to the wrong readers.
      if (contentLanguage !== undefined && res.getHeader("content-language") !== contentLanguage) return resolve(null);
      const headers: [string, string][] = [];
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value === undefined || PER_RESPONSE_HEADERS.has(name)) continue;
        headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      const body = Buffer.concat(chunks);
      const parts = face.page ? splitAt(body, Buffer.from(nonce)) : [body];
      const etag = face.page ? null : (headerOf(headers, "etag") ?? `"${createHash("sha256").update(body).digest("hex").slice(0, 40)}"`);
      if (etag !== null && headerOf(headers, "etag") === null) headers.push(["etag", etag]);
      // The version was read before the render; a change that landed in between may be in what was
      // rendered. Kept only when the version still reads the same, so no key ever holds a render of
      // another version (a count that goes up and back down would otherwise find the wrong page).
      face.key(req).then(
        (again) => resolve(again?.version === version ? keptAnswer(headers, parts, etag, body) : null),
        () => resolve(null),
      );
    });
    // The client left before the end: nothing complete to keep. ("close" follows "finish" too, before
    // the version's second reading has answered.)
    res.once("close", () => {
      if (!finished) resolve(null);
    });
    handle(req, res).catch(reject);
  });
}

/** What the cache keeps of a render: a document with its codings, made once here. Exported for its test. */
export function keptAnswer(headers: [string, string][], parts: Buffer[], etag: string | null, body: Buffer): KeptAnswer {
  const coded: KeptAnswer["coded"] = {};
  // Compressed once, so even a small document is worth it when it comes out smaller.
  if (etag !== null && mayCompress(200, Object.fromEntries(headers), body.length, 0)) {
    const br = compressBody(body, "br", "kept");
    const gzip = compressBody(body, "gzip", "kept");
    if (br.length < body.length && gzip.length < body.length) Object.assign(coded, { br: exactCopy(br), gzip: exactCopy(gzip) });
  }
  const bytes = body.length + (coded.br?.length ?? 0) + (coded.gzip?.length ?? 0);
  return { status: 200, headers, parts, etag, coded, bytes };
}

/**
 * The bytes in memory of their own size: zlib's result is a view of its 16 KiB output chunk, which a
 * kept small document would hold whole (5,000 of them 160 MB where the cache counts 10).
 */
function exactCopy(view: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(view.length);
  view.copy(copy);
  return copy;
}

function headerOf(headers: [string, string][], name: string): string | null {
  return headers.find(([n]) => n === name)?.[1] ?? null;
}

/** The pieces of `body` between the occurrences of `separator`. */
function splitAt(body: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(separator, from); at !== -1; at = body.indexOf(separator, from)) {
    parts.push(body.subarray(from, at));
    from = at + separator.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

/** Whether an If-None-Match header names `etag` (or is `*`); weak validators compare as strong ones here. */
function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/** Answers from a kept answer: the page with this response's nonce; a document as 304, compressed or plain. */
function answerKept(req: IncomingMessage, res: ServerResponse, kept: KeptAnswer, nonce: string): void {
  for (const [name, value] of kept.headers) res.setHeader(name, value);
  res.statusCode = kept.status;
  if (kept.etag !== null) {
    if (matchesEtag(headerText(req, "if-none-match"), kept.etag)) {
      res.statusCode = 304;
      res.removeHeader("content-type");
      res.end();
      return;
    }
    // Kept without codings when not worth compressing: then the answer does not vary.
    if (kept.coded.br === undefined) return endCoded(req, res, kept.parts[0]!, null);
    varyOnAcceptEncoding(res);
    const coding = preferredCoding(req);
    endCoded(req, res, coding === null ? kept.parts[0]! : kept.coded[coding]!, coding);
    return;
  }
  const nonceBytes = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  kept.parts.forEach((part, i) => {
    if (i > 0) pieces.push(nonceBytes);
    pieces.push(part);
  });
  endWithBody(req, res, pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces), "answer");
}

/**
 * Answers a request for a public face from the cache, or through Next while keeping the answer.
 * Returns false when the request names no face this cache answers (the caller hands it to Next).
 */
export async function servePublicFace(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  nonce: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<boolean> {
  const face = publicFaceOf(req, path);
  if (!face) return false;
  const rest = await face.key(req);
  if (rest === null) return false;
  const { contentLanguage, ...keyParts } = rest;
  const key: CacheKey = { kind: face.kind, id: face.id, ...keyParts };
  const cache = publicFacesCache();
  const outcome = await cache.getOrRender(key, () => renderThroughNext(req, res, face, nonce, contentLanguage, handle, rest.version));
  const requestId = headerText(req, "x-request-id");
  if (outcome.rendered) {
    log.info("public_face", { requestId, path, kind: face.kind, cache: "miss", kept: outcome.value !== null, status: res.statusCode });
    return true;
  }
  if (outcome.value === null) return false; // the render this request waited for kept nothing: Next answers it
  answerKept(req, res, outcome.value, nonce);
  log.info("public_face", { requestId, path, kind: face.kind, cache: "hit", status: res.statusCode });
  return true;
}
