// The shape of a document's proofs (VC Data Integrity 1.0 §2.1): how many, and what `previousProof`
// may name. Checked with the data model, before any proof is verified, so that a malformed proof set
// is reported as a data-model error and never as tampering.

/** More proofs than any real document carries; each may cost a DID resolution. */
export const MAX_PROOFS = 8;

export type Proof = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function proofsOf(document: Record<string, unknown>): unknown[] {
  return document.proof === undefined ? [] : Array.isArray(document.proof) ? document.proof : [document.proof];
}

/** Whether `document` needs proof-set.ts: several proofs, or one that names a previous proof. */
export function isProofSetOrChain(document: Record<string, unknown>): boolean {
  const proofs = proofsOf(document);
  return proofs.length > 1 || proofs.some((proof) => isObject(proof) && proof.previousProof !== undefined);
}

/** The ids `proof.previousProof` names (none when absent); null when it is not a string or strings. */
export function previousProofIds(proof: Proof): string[] | null {
  const value = proof.previousProof;
  if (value === undefined) return [];
  const ids = Array.isArray(value) ? value : [value];
  return ids.length > 0 && ids.every((id) => typeof id === "string") ? ids : null;
}

export const signerDid = (proof: Proof) =>
  typeof proof.verificationMethod === "string" ? proof.verificationMethod.split("#")[0] : undefined;

/**
 * What is wrong with the shape of a document's proofs, before any is verified (a data-model error,
 * not tampering): too many, one that is not an object, a `previousProof` that is not a string or list
 * of strings, or that names no other proof of the document. Null when the shape is sound.
 */
export function proofSetProblem(document: Record<string, unknown>): string | null {
  const proofs = proofsOf(document);
  if (proofs.length > MAX_PROOFS) return `the document has ${proofs.length} proofs; at most ${MAX_PROOFS} are checked`;
  if (!proofs.every(isObject)) return "every proof must be an object";
  const ids = proofs.flatMap((proof) => (typeof proof.id === "string" ? [proof.id] : []));
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate !== undefined) return `two proofs have the id "${duplicate.slice(0, 200)}"`;
  const named = new Map<string, string[]>();
  for (const [index, proof] of proofs.entries()) {
    const previous = previousProofIds(proof);
    if (!previous) return `proof ${index + 1}: "previousProof" must be a string or a list of strings naming other proofs of the document`;
    const missing = previous.find((id) => !ids.includes(id) || id === proof.id);
    if (missing !== undefined) {
      return `proof ${index + 1} names a previous proof "${missing.slice(0, 200)}" that is not among the document's other proofs`;
    }
    if (typeof proof.id === "string") named.set(proof.id, previous);
  }
  // A chain goes back in time: a proof cannot (through others) name itself.
  const reaches = (from: string, target: string, seen = new Set<string>()): boolean =>
    (named.get(from) ?? []).some((id) => id === target || (!seen.has(id) && (seen.add(id), reaches(id, target, seen))));
  const looped = [...named.keys()].find((id) => reaches(id, id));
  if (looped !== undefined) return `the proofs' previousProof links go round in a circle (through "${looped.slice(0, 200)}")`;
  return null;
}
