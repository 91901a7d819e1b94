// The format check: the text is a JSON object of bounded size and depth, a W3C Verifiable Credential
// (data model 2.0 or 1.1; an Open Badge or any other kind) or Verifiable Presentation, with only JSON-LD
// contexts this instance bundles (an unknown one is refused here, by name, rather than fetched), that
// keeps the data model's rules (data-model.ts). Also reads the facts the document states, for display.
import { JsonTooDeepError, parseUntrustedJson } from "../core/json-text";
import { bundledContext, VC_V1_CONTEXT, VC_V2_CONTEXT } from "../verifiable/contexts";
import { checkCredentialDataModel } from "../verifiable/data-model";
import { proofSetProblem } from "./proof-shape";
import { EMPTY_FACTS, type Check, type CredentialFacts } from "./report";

/** Larger than any credential we issue (a few KiB) by far; bounds parsing and canonicalization work. */
export const MAX_CREDENTIAL_BYTES = 256 * 1024;

export type CredentialDocument = Record<string, unknown> & { "@context": unknown[] };

export type FormatResult = { check: Check; document: CredentialDocument | null; facts: CredentialFacts };

const fail = (summary: string, detail: string | null, document: CredentialDocument | null = null, facts = EMPTY_FACTS): FormatResult => ({
  check: { id: "format", outcome: "failed", summary, detail },
  document,
  facts,
});

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
/** A string the document states, shortened for display; anything else is null. */
const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? [...value].slice(0, 300).join("") : null;

export function issuerIdOf(document: Record<string, unknown>): string | null {
  const issuer = document.issuer;
  return text(isObject(issuer) ? issuer.id : issuer);
}

/** The recipient's name: `credentialSubject.name`, or an unhashed identifier of type `name`. */
function recipientNameOf(subject: Record<string, unknown>): string | null {
  const name = text(subject.name);
  if (name) return name;
  const byName = asArray(subject.identifier).find((i) => isObject(i) && i.identityType === "name" && i.hashed === false);
  return isObject(byName) ? text(byName.identityHash) : null;
}

export function factsOf(document: Record<string, unknown>): CredentialFacts {
  const subject = asArray(document.credentialSubject).find(isObject) ?? {};
  const achievement = isObject(subject.achievement) ? subject.achievement : {};
  const issuer = isObject(document.issuer) ? document.issuer : {};
  return {
    ...EMPTY_FACTS,
    credentialName: text(document.name),
    achievementName: text(achievement.name),
    recipientName: recipientNameOf(subject),
    issuerName: text(issuer.name),
    issuerId: issuerIdOf(document),
    validFrom: text(document.validFrom ?? document.issuanceDate),
    validUntil: text(document.validUntil ?? document.expirationDate),
  };
}

export type ParsedInput = { ok: true; value: Record<string, unknown>; bytes: number } | { ok: false; result: FormatResult };

/** The text as a JSON object, within the size and depth limits. */
export function parseDocument(json: string): ParsedInput {
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > MAX_CREDENTIAL_BYTES) {
    return {
      ok: false,
      result: fail(
        `The document is too large to be a credential (${Math.ceil(bytes / 1024)} KiB; at most ${MAX_CREDENTIAL_BYTES / 1024} KiB is read).`,
        null,
      ),
    };
  }
  let parsed: unknown;
  try {
    parsed = parseUntrustedJson(json);
  } catch (error) {
    if (error instanceof JsonTooDeepError)
      return { ok: false, result: fail("The document is nested too deeply to be a credential.", `it ${error.message}`) };
    const reason = error instanceof SyntaxError ? error.message : "not JSON";
    return { ok: false, result: fail("The document is not valid JSON: it may be incomplete or damaged.", reason) };
  }
  if (!isObject(parsed)) return { ok: false, result: fail("The document is not a credential: it is JSON, but not an object.", null) };
  return { ok: true, value: parsed, bytes };
}

export const isPresentation = (document: Record<string, unknown>) => asArray(document.type).includes("VerifiablePresentation");

/** The contexts: a VC 2.0 or 1.1 document, naming only bundled contexts. Null when they are fine. */
export function contextProblem(document: Record<string, unknown>, facts: CredentialFacts = EMPTY_FACTS): FormatResult | null {
  const contexts = asArray(document["@context"]);
  if (contexts[0] !== VC_V2_CONTEXT && contexts[0] !== VC_V1_CONTEXT) {
    return fail(
      "The document is not a W3C Verifiable Credential (data model 2.0 or 1.1).",
      `its first @context must be ${VC_V2_CONTEXT} or ${VC_V1_CONTEXT}`,
      null,
      facts,
    );
  }
  const unknown = contexts.filter((c): c is string => typeof c === "string" && !bundledContext(c));
  if (unknown.length > 0) {
    return fail(
      "The document uses a vocabulary (JSON-LD context) this verifier does not know, so its signature cannot be checked.",
      `unknown context ${unknown.map((c) => JSON.stringify(c.slice(0, 200))).join(", ")}; contexts are never fetched from the network`,
      null,
      facts,
    );
  }
  return null;
}

/** The format and data-model check of one credential (parsed), before any proof is looked at. */
export function checkCredentialFormat(parsed: Record<string, unknown>, bytes: number): FormatResult {
  const facts = factsOf(parsed);
  const contexts = contextProblem(parsed, facts);
  if (contexts) return contexts;
  if (!asArray(parsed.type).includes("VerifiableCredential")) {
    return fail("The document is not a Verifiable Credential.", "its type must include VerifiableCredential", null, facts);
  }
  if (!facts.issuerId) return fail("The document does not say who issued it.", "issuer (or issuer.id) is missing", null, facts);
  if (parsed.credentialSubject === undefined)
    return fail("The document does not say whom it was issued to.", "credentialSubject is missing", null, facts);
  const model = checkCredentialDataModel(parsed);
  if (!model.ok) {
    return fail(
      `The document breaks the Verifiable Credentials data model: ${model.reason.replace(/\.+$/, "")}.`,
      `data model error: ${model.reason}`,
      null,
      facts,
    );
  }
  if (!asArray(parsed.proof).some(isObject)) {
    return fail("The document is not signed, so nothing proves who issued it or that it was not changed.", "it has no proof", null, facts);
  }
  const proofs = proofSetProblem(parsed);
  if (proofs) return fail(`The document's proofs are malformed: ${proofs}.`, `data model error: ${proofs}`, null, facts);
  const v1 = asArray(parsed["@context"])[0] === VC_V1_CONTEXT;
  const kind = asArray(parsed.type).some((t) => t === "OpenBadgeCredential" || t === "AchievementCredential")
    ? "an Open Badges 3.0 credential"
    : `a Verifiable Credential (data model ${v1 ? "1.1" : "2.0"})`;
  return {
    check: {
      id: "format",
      outcome: "passed",
      summary: `The document is ${kind}.`,
      detail: `${bytes} bytes; contexts ${asArray(parsed["@context"])
        .filter((c) => typeof c === "string")
        .join(", ")}`,
    },
    document: parsed as CredentialDocument,
    facts,
  };
}

/** Parse and check one credential given as text. */
export function checkFormat(json: string): FormatResult {
  const parsed = parseDocument(json);
  return parsed.ok ? checkCredentialFormat(parsed.value, parsed.bytes) : parsed.result;
}
