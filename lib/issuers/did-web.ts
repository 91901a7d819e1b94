// did:web identifiers and DID documents (W3C DID Core 1.0, did:web method, Controlled Identifiers'
// Multikey). Pure: no database, no configuration.

export const DID_CONTEXTS = ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"] as const;

/**
 * The did:web DID whose document is served at `<baseUrl>/<segments...>/did.json`: the host (with its
 * port, the colon percent-encoded as the method requires), then each path segment after a colon.
 */
export function didWebFor(baseUrl: string, segments: readonly string[]): string {
  const url = new URL(baseUrl);
  const host = url.port ? `${url.hostname}%3A${url.port}` : url.hostname;
  const basePath = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  // A colon inside a segment would read as a separator: percent-encode everything not plainly safe.
  return ["did:web", host, ...[...basePath, ...segments].map(encodeURIComponent)].join(":");
}

export type VerificationKey = { id: string; publicKeyMultibase: string };

export type DidDocument = {
  "@context": readonly string[];
  id: string;
  verificationMethod: { id: string; type: "Multikey"; controller: string; publicKeyMultibase: string }[];
  assertionMethod: string[];
  authentication: string[];
};

/** The verification method id of one key of `did`. */
export function verificationMethodId(did: string, keyId: string): string {
  return `${did}#${keyId}`;
}

/** A DID document listing every key (current and retired) as a Multikey usable for assertions. */
export function didDocument(did: string, keys: readonly VerificationKey[]): DidDocument {
  const methods = keys.map((key) => ({
    id: verificationMethodId(did, key.id),
    type: "Multikey" as const,
    controller: did,
    publicKeyMultibase: key.publicKeyMultibase,
  }));
  const ids = methods.map((m) => m.id);
  return { "@context": DID_CONTEXTS, id: did, verificationMethod: methods, assertionMethod: ids, authentication: [...ids] };
}
