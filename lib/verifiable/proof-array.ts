// Our documents carry `proof` as an array holding their DataIntegrityProof: 1EdTech's Open Badges 3.0
// JSON Schema (which its validator and DCC's verifier run) requires the array, and VC 2.0 allows both
// forms. The array changes nothing a proof signs: a Data Integrity proof covers the document without
// its `proof` property, so documents stored before with a single proof object are served in the array
// form too and still verify.

/** The document with its proof (or proofs) as an array; a document without a proof is returned as is. */
export function withProofArray<T extends object>(document: T): T {
  const proof = (document as { proof?: unknown }).proof;
  if (proof === undefined || Array.isArray(proof)) return document;
  return { ...document, proof: [proof] };
}

/** The same, for a stored document's JSON text: unchanged text when it already has the array form. */
export function jsonWithProofArray(json: string): string {
  const parsed = JSON.parse(json) as object;
  const normalized = withProofArray(parsed);
  return normalized === parsed ? json : JSON.stringify(normalized);
}
