// The format check: the text is a JSON object of bounded size and depth shaped as a VC 2.0
// OpenBadgeCredential, with only JSON-LD contexts this instance bundles (an unknown one is refused here,
// by name, rather than fetched). Also reads the facts the document states, for display.
import { JsonTooDeepError, parseUntrustedJson } from "../core/json-text";
import { bundledContext, OPEN_BADGES_V3_CONTEXT, VC_V2_CONTEXT } from "../verifiable/contexts";
import { EMPTY_FACTS, type Check, type CredentialFacts } from "./report";

/** Larger than any credential we issue (a few KiB) by far; bounds parsing and canonicalization work. */
export const MAX_CREDENTIAL_BYTES = 256 * 1024;

const OPEN_BADGES_V3_CONTEXT_PREFIX = "https://purl.imsglobal.org/spec/ob/v3p0/context";

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
    validFrom: text(document.validFrom),
    validUntil: text(document.validUntil),
  };
}

export function checkFormat(json: string): FormatResult {
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > MAX_CREDENTIAL_BYTES) {
    return fail(
      `The document is too large to be a credential (${Math.ceil(bytes / 1024)} KiB; at most ${MAX_CREDENTIAL_BYTES / 1024} KiB is read).`,
      null,
    );
  }
  let parsed: unknown;
  try {
    parsed = parseUntrustedJson(json);
  } catch (error) {
    if (error instanceof JsonTooDeepError) return fail("The document is nested too deeply to be a credential.", `it ${error.message}`);
    const reason = error instanceof SyntaxError ? error.message : "not JSON";
    return fail("The document is not valid JSON: it may be incomplete or damaged.", reason);
  }
  if (!isObject(parsed)) return fail("The document is not a credential: it is JSON, but not an object.", null);
  const facts = factsOf(parsed);
  const contexts = asArray(parsed["@context"]);
  if (contexts[0] !== VC_V2_CONTEXT) {
    return fail("The document is not a W3C Verifiable Credential 2.0.", `its first @context must be ${VC_V2_CONTEXT}`, null, facts);
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
  if (!contexts.some((c) => typeof c === "string" && c.startsWith(OPEN_BADGES_V3_CONTEXT_PREFIX))) {
    return fail("The document is not an Open Badges 3.0 credential.", `its @context must include ${OPEN_BADGES_V3_CONTEXT}`, null, facts);
  }
  const types = asArray(parsed.type);
  if (!types.includes("VerifiableCredential") || !(types.includes("OpenBadgeCredential") || types.includes("AchievementCredential"))) {
    return fail(
      "The document is not an Open Badges 3.0 credential.",
      "its type must include VerifiableCredential and OpenBadgeCredential",
      null,
      facts,
    );
  }
  if (!facts.issuerId) return fail("The document does not say who issued it.", "issuer (or issuer.id) is missing", null, facts);
  if (!asArray(parsed.credentialSubject).some(isObject))
    return fail("The document does not say whom it was issued to.", "credentialSubject is missing", null, facts);
  if (!asArray(parsed.proof).some(isObject)) {
    return fail("The document is not signed, so nothing proves who issued it or that it was not changed.", "it has no proof", null, facts);
  }
  return {
    check: {
      id: "format",
      outcome: "passed",
      summary: "The document is an Open Badges 3.0 credential.",
      detail: `${bytes} bytes; contexts ${contexts.filter((c) => typeof c === "string").join(", ")}`,
    },
    document: parsed as CredentialDocument,
    facts,
  };
}
