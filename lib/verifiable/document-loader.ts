// The JSON-LD document loader for signing and verifying: contexts come from the bundled packages only,
// DIDs from a resolver the caller plugs in (ours reads this instance's own did:web documents from the
// database; a verifier may add remote did:web resolution), other documents (a status list credential)
// from an optional resolver. Anything else is refused with a clear error: never a network fetch.
import { bundledContext } from "./contexts";

export type LoadedDocument = { contextUrl: null; documentUrl: string; document: object };
export type DocumentLoader = (url: string) => Promise<LoadedDocument>;

/** A DID document as a resolver returns it: at least its id, context and verification methods. */
export type ResolvedDidDocument = { "@context"?: unknown; id: string; verificationMethod?: { id: string }[]; [key: string]: unknown };

/** Resolves a DID (without fragment) to its document, or null when it names nothing. */
export type DidResolver = (did: string) => Promise<ResolvedDidDocument | null>;
/** Resolves a non-context, non-DID URL (a status list credential) to its document, or null. */
export type UrlResolver = (url: string) => Promise<object | null>;

/** Why a document could not be loaded. The message names the URL and says why, nothing more. */
export class DocumentLoadError extends Error {
  readonly url: string;
  constructor(url: string, reason: string) {
    super(`Could not load ${JSON.stringify(url.slice(0, 300))}: ${reason}`);
    this.name = "DocumentLoadError";
    this.url = url;
  }
}

export type DocumentLoaderOptions = { resolveDid?: DidResolver; resolveUrl?: UrlResolver };

function loaded(url: string, document: object): LoadedDocument {
  return { contextUrl: null, documentUrl: url, document };
}

async function loadDid(url: string, resolveDid: DidResolver | undefined): Promise<LoadedDocument> {
  if (!resolveDid) throw new DocumentLoadError(url, "DIDs are not resolved here");
  const hash = url.indexOf("#");
  const did = hash === -1 ? url : url.slice(0, hash);
  const document = await resolveDid(did);
  if (!document || document.id !== did) throw new DocumentLoadError(url, "the DID could not be resolved");
  if (hash === -1) return loaded(url, document);
  // A verification method is handed out on its own, in its DID document's context, as the Data
  // Integrity libraries expect when they dereference a proof's verificationMethod.
  const method = document.verificationMethod?.find((m) => m.id === url);
  if (!method) throw new DocumentLoadError(url, "the DID document has no such verification method");
  return loaded(url, { "@context": document["@context"], ...method });
}

/** A document loader for jsonld.js and the @digitalbazaar libraries. */
export function createDocumentLoader(options: DocumentLoaderOptions = {}): DocumentLoader {
  return async (url: string) => {
    if (typeof url !== "string") throw new DocumentLoadError(String(url), "not a URL");
    const context = bundledContext(url);
    if (context) return loaded(url, context);
    if (url.startsWith("did:")) return loadDid(url, options.resolveDid);
    if (options.resolveUrl) {
      const document = await options.resolveUrl(url);
      if (document) return loaded(url, document);
    }
    throw new DocumentLoadError(url, "it is not a bundled JSON-LD context, and contexts are never fetched from the network");
  };
}
