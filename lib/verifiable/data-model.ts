// The Verifiable Credentials data model's rules, checked before any proof: a document that breaks
// them is reported for what it breaks ("credentialSubject is empty", "validFrom has no time zone"),
// never as a signature that does not match. @digitalbazaar/vc's own checks run first (in their
// issue mode, which does not compare dates with today: the validity check does that); the rules the
// library leaves out (VC 2.0 and 1.1) follow.
import * as vc from "@digitalbazaar/vc";
import { VC_V1_CONTEXT } from "./contexts";

export type DataModelResult = { ok: true } | { ok: false; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/**
 * An XML Schema dateTimeStamp: a date, a time and a time zone (VC 2.0 requires the zone for validFrom
 * and validUntil; a date-time without one means a different instant in every place).
 */
const DATE_TIME_STAMP =
  /^-?\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))$/;
/** VC 1.1's issuanceDate and expirationDate: an xsd:dateTime, the zone optional. */
const DATE_TIME =
  /^-?\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))?$/;

/** Members whose values must be objects with a `type` (VC 2.0 §4 and VC 1.1 alike). */
const TYPED_MEMBERS = ["credentialSchema", "credentialStatus", "evidence", "termsOfUse", "refreshService", "renderMethod"];

const isUrl = (value: unknown): value is string => typeof value === "string" && /^[a-z][a-z0-9+.-]*:\S+$/i.test(value);

/** A `type` value: a term or URL, or a non-empty array of those. */
const isTypeValue = (value: unknown) =>
  typeof value === "string"
    ? value !== ""
    : Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === "string" && t !== "");

/**
 * A Subresource Integrity expression (one or more `sha256-`, `sha384-` or `sha512-` followed by the
 * digest in standard base64, space separated), as VC 2.0's digestSRI requires. base64url is not SRI.
 */
const SRI_EXPRESSION = /^(sha256|sha384|sha512)-[A-Za-z0-9+/]+={0,2}(\?\S*)?$/;
const isDigestSri = (value: unknown) =>
  typeof value === "string" &&
  value.trim() !== "" &&
  value
    .trim()
    .split(/\s+/)
    .every((e) => SRI_EXPRESSION.test(e));
/** A multibase string: one base prefix character, then the encoded digest. */
const isDigestMultibase = (value: unknown) => typeof value === "string" && /^[a-zA-Z0-9][A-Za-z0-9+/=_-]+$/.test(value);

/**
 * relatedResource (VC 2.0, integrity of related resources): objects, each with a URL `id` unique in the
 * list and at least one digest. Whether the digest matches the resource is not checked here: that
 * needs the resource's published bytes, which the verifier does not fetch (see docs/w3c-suites.md).
 */
function relatedResourceProblem(value: unknown): string | null {
  const seen = new Set<string>();
  for (const resource of asArray(value)) {
    if (!isObject(resource)) return "every relatedResource must be an object with an id and a digest, not a string";
    if (!isUrl(resource.id)) return "every relatedResource must have an id that is a URL";
    if (seen.has(resource.id)) return `relatedResource ids must be unique; ${resource.id.slice(0, 100)} appears twice`;
    seen.add(resource.id);
    if (resource.digestSRI === undefined && resource.digestMultibase === undefined)
      return "every relatedResource must have a digestSRI or a digestMultibase";
    if (resource.digestSRI !== undefined && !isDigestSri(resource.digestSRI))
      return "relatedResource digestSRI must be a Subresource Integrity value such as sha384-<base64>";
    if (resource.digestMultibase !== undefined && !isDigestMultibase(resource.digestMultibase))
      return "relatedResource digestMultibase must be a multibase string";
    if (resource.mediaType !== undefined && (typeof resource.mediaType !== "string" || !/^[\w.+-]+\/[\w.+-]+/.test(resource.mediaType)))
      return "relatedResource mediaType must be a media type such as application/ld+json";
  }
  return null;
}

/** A `name` or `description`: a string, a language value object, or an array of those. */
function isLanguageText(value: unknown): boolean {
  const one = (v: unknown) =>
    typeof v === "string" ||
    (isObject(v) && typeof v["@value"] === "string" && (v["@language"] === undefined || typeof v["@language"] === "string"));
  return Array.isArray(value) ? value.length > 0 && value.every(one) : one(value);
}

function dateRule(document: Record<string, unknown>, member: string, pattern: RegExp, what: string): string | null {
  if (!(member in document)) return null;
  const value = document[member];
  if (typeof value !== "string" || !pattern.test(value) || Number.isNaN(Date.parse(value))) {
    return `${member} must be ${what}; it is ${JSON.stringify(value)?.slice(0, 100)}`;
  }
  return null;
}

/** The rules @digitalbazaar/vc does not check, in the order a reader would fix them. */
function ownRules(credential: Record<string, unknown>): string | null {
  const subjects = asArray(credential.credentialSubject);
  if (subjects.length === 0) return "credentialSubject must not be empty";
  for (const subject of subjects) {
    if (!isObject(subject) || Object.keys(subject).length === 0) return "each credentialSubject must be an object that states something";
  }
  for (const member of TYPED_MEMBERS) {
    for (const value of asArray(credential[member])) {
      if (!isObject(value) || value.type === undefined) return `every ${member} must be an object with a type`;
      if (!isTypeValue(value.type)) return `the type of every ${member} must be a term or URL (or a list of them)`;
      if (value.id !== undefined && !isUrl(value.id)) return `the id of a ${member}, when present, must be one URL`;
    }
  }
  if ("relatedResource" in credential) {
    const problem = relatedResourceProblem(credential.relatedResource);
    if (problem) return problem;
  }
  for (const schema of asArray(credential.credentialSchema)) {
    if (isObject(schema) && typeof schema.id !== "string") return "every credentialSchema must have an id";
  }
  for (const member of ["name", "description"]) {
    if (member in credential && !isLanguageText(credential[member]))
      return `${member} must be text (a string or a language value object), not ${JSON.stringify(credential[member])?.slice(0, 60)}`;
  }
  const v1 = asArray(credential["@context"])[0] === VC_V1_CONTEXT;
  const dateProblem = v1
    ? (dateRule(credential, "issuanceDate", DATE_TIME, "a date-time") ?? dateRule(credential, "expirationDate", DATE_TIME, "a date-time"))
    : (dateRule(credential, "validFrom", DATE_TIME_STAMP, "a date-time with a time zone") ??
      dateRule(credential, "validUntil", DATE_TIME_STAMP, "a date-time with a time zone"));
  if (dateProblem) return dateProblem;
  const [from, until] = v1 ? ["issuanceDate", "expirationDate"] : ["validFrom", "validUntil"];
  if (typeof credential[from] === "string" && typeof credential[until] === "string") {
    if (Date.parse(credential[until]) < Date.parse(credential[from])) return `${until} must not be before ${from}`;
  }
  return null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function checkCredentialDataModel(credential: Record<string, unknown>): DataModelResult {
  try {
    vc._checkCredential({ credential, mode: "issue" });
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
  const reason = ownRules(credential);
  return reason ? { ok: false, reason } : { ok: true };
}

export function checkPresentationDataModel(presentation: Record<string, unknown>): DataModelResult {
  try {
    vc._checkPresentation(presentation);
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
  for (const credential of asArray(presentation.verifiableCredential)) {
    if (!isObject(credential)) return { ok: false, reason: "each verifiableCredential must be a credential object" };
  }
  if ("holder" in presentation) {
    const holder = isObject(presentation.holder) ? presentation.holder.id : presentation.holder;
    if (typeof holder !== "string" || !/^[a-z][a-z0-9+.-]*:\S+$/i.test(holder)) return { ok: false, reason: "holder must be a URL" };
  }
  return { ok: true };
}
