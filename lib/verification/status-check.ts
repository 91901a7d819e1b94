// The status check (Bitstring Status List v1.0), for every credentialStatus entry of a credential:
// load the status list credential it points at (ours read locally, another issuer's fetched through
// lib/net), refuse a list that is expired, too short for herd privacy, not signed by the credential's
// issuer or without the entry's purpose, then read the entry's bit with
// @digitalbazaar/vc-bitstring-status-list. A set revocation bit is "revoked", a set suspension bit
// "suspended"; an entry that cannot be read leaves the status unknown, never "not revoked".
import { gunzipSync } from "node:zlib";
import { checkStatus } from "@digitalbazaar/vc-bitstring-status-list";
import { config } from "../config";
import type { ResolvedDidDocument } from "../verifiable/document-loader";
import { statusListCredential } from "../verifiable/service";
import { STATUS_LIST_LENGTH } from "../verifiable/status-list";
import { checkCredentialDataModel } from "../verifiable/data-model";
import { fetchJsonObject, RemoteDocumentError } from "./remote-json";
import type { Check } from "./report";
import { verifyProof } from "./signature-check";

/** A list of 131,072 entries is a few hundred bytes when few are set; this leaves room for big lists. */
const MAX_STATUS_LIST_BYTES = 512 * 1024;
/** The decompressed bits, at most: 16 MiB is 134 million entries. A small gzip cannot inflate past it. */
const MAX_BITSTRING_BYTES = 16 * 1024 * 1024;
/** A credential pointing at more lists than this is not read further (each is a fetch and a proof). */
const MAX_STATUS_ENTRIES = 8;

/** `invalid`: an entry points at a list its issuer did not publish: the credential itself is wrong. */
/** The summaries of the two failures a VC API client is told apart (retrieval, and a list too short). */
export const STATUS_LIST_UNREADABLE = "The issuer's status list could not be read, so the credential's status is unknown.";
export const STATUS_LIST_TOO_SHORT = "The issuer's status list is too short to protect holders' privacy, so it is not relied on.";

export type StatusResult = { check: Check; revoked: boolean; suspended: boolean; invalid: boolean; unverifiable: boolean };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const idOf = (value: unknown) => (isObject(value) ? value.id : value);

const result = (
  outcome: Check["outcome"],
  summary: string,
  detail: string | null,
  extra: Partial<Omit<StatusResult, "check">> = {},
): StatusResult => ({
  check: { id: "status", outcome, summary, detail },
  revoked: false,
  suspended: false,
  invalid: false,
  unverifiable: false,
  ...extra,
});

/** Our own status list URL (`{PUBLIC_URL}/organizations/<slug>/status/<n>`) as its parts, or null. */
function ownStatusList(url: string): { slug: string; number: number } | null {
  const prefix = `${config().publicUrl}/organizations/`;
  if (!url.startsWith(prefix)) return null;
  const match = /^([^/?#]+)\/status\/(\d{1,9})$/.exec(url.slice(prefix.length));
  if (!match) return null;
  try {
    return { slug: decodeURIComponent(match[1]!), number: Number(match[2]) };
  } catch {
    return null;
  }
}

async function loadStatusList(url: string): Promise<Record<string, unknown>> {
  const own = ownStatusList(url);
  if (!own) return fetchJsonObject(url, MAX_STATUS_LIST_BYTES);
  try {
    return JSON.parse((await statusListCredential(own.slug, own.number)).json) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: string }).code === "not_found") throw new RemoteDocumentError(`${url} names no status list of this service.`);
    throw error;
  }
}

/** The bits' decompressed size is checked before the library inflates them without a bound. */
function assertBitstringSize(encodedList: string): void {
  if (!encodedList.startsWith("u")) throw new Error('the encoded list must be multibase base64url (start with "u")');
  const gzipped = Buffer.from(encodedList.slice(1), "base64url");
  try {
    gunzipSync(gzipped, { maxOutputLength: MAX_BITSTRING_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new Error(`the list is larger than ${MAX_BITSTRING_BYTES / 1024 / 1024} MiB once decompressed`);
    throw new Error("the encoded list is not gzip-compressed data");
  }
}

/** What one entry says, or why it could not be read. */
type EntryOutcome =
  | { read: true; purpose: string; set: boolean; detail: string }
  | { read: false; kind: "invalid" | "unverifiable"; summary: string; detail: string };

const unread = (summary: string, detail: string, kind: "invalid" | "unverifiable" = "unverifiable"): EntryOutcome => ({
  read: false,
  kind,
  summary,
  detail,
});
const MALFORMED = "The issuer's status list is malformed, so the credential's status cannot be told.";

async function readEntry(
  credential: Record<string, unknown>,
  entry: Record<string, unknown>,
  issuerId: string,
  issuerDid: ResolvedDidDocument,
  lists: Map<string, Promise<Record<string, unknown>>>,
  now: Date,
): Promise<EntryOutcome> {
  if (entry.type !== "BitstringStatusListEntry") {
    return unread(
      "The credential's status uses a method this verifier does not read: only its issuer can tell you.",
      `credentialStatus type ${JSON.stringify(entry.type)}`,
    );
  }
  const listUrl = entry.statusListCredential;
  const purpose = entry.statusPurpose;
  const indexText = entry.statusListIndex;
  if (typeof listUrl !== "string" || typeof purpose !== "string" || typeof indexText !== "string" || !/^\d{1,10}$/.test(indexText))
    return unread(
      MALFORMED,
      "statusListCredential must be a URL, statusPurpose a string and statusListIndex a non-negative integer in a string",
    );
  if (entry.statusSize !== undefined && entry.statusSize !== 1)
    return unread(
      "The credential's status uses entries of several bits, which this verifier does not read.",
      `statusSize ${JSON.stringify(entry.statusSize)}`,
    );
  const index = Number(indexText);
  const at = `entry ${index} (${purpose}) of ${listUrl}`;

  let list: Record<string, unknown>;
  try {
    if (!lists.has(listUrl)) lists.set(listUrl, loadStatusList(listUrl));
    list = await lists.get(listUrl)!;
  } catch (error) {
    if (error instanceof RemoteDocumentError) return unread(STATUS_LIST_UNREADABLE, error.message);
    throw error;
  }
  if (!asArray(list.type).includes("BitstringStatusListCredential"))
    return unread(MALFORMED, `${listUrl} is not a BitstringStatusListCredential`);
  if (idOf(list.issuer) !== issuerId) {
    return unread(
      "The status list the credential points at was not published by its issuer.",
      `the list's issuer is ${JSON.stringify(idOf(list.issuer))}, the credential's ${issuerId}`,
      "invalid",
    );
  }
  const model = checkCredentialDataModel(list);
  if (!model.ok) return unread(MALFORMED, `${listUrl}: ${model.reason}`);
  const until = list.validUntil ?? list.expirationDate;
  if (typeof until === "string" && Date.parse(until) < now.getTime()) {
    return unread(
      "The issuer's status list has expired, so it cannot say whether the credential is still in good standing.",
      `${listUrl} was valid until ${until}`,
    );
  }
  const proof = await verifyProof(list, issuerDid);
  if (!proof.verified) return unread("The issuer's status list is not correctly signed, so it cannot be trusted.", proof.reason);

  const subject = asArray(list.credentialSubject).find(isObject);
  const purposes = asArray(subject?.statusPurpose);
  if (!subject || typeof subject.encodedList !== "string") return unread(MALFORMED, "the list's credentialSubject has no encodedList");
  if (!purposes.includes(purpose)) return unread(MALFORMED, `the list serves ${JSON.stringify(subject.statusPurpose)}, not "${purpose}"`);
  let length: number;
  try {
    length = bitstringLength(subject.encodedList);
  } catch (error) {
    return unread(MALFORMED, `the encoded list cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (length < STATUS_LIST_LENGTH)
    return unread(STATUS_LIST_TOO_SHORT, `${listUrl} has ${length} entries; Bitstring Status List requires at least ${STATUS_LIST_LENGTH}`);
  if (index >= length) return unread(MALFORMED, `the credential's index ${index} is outside the list (${length} entries)`);

  // The library reads the bit (and checks the issuers match once more). It compares purposes as single
  // strings, so it is handed the list as serving just this entry's purpose; the list's proof was
  // checked above, on the document as published.
  const narrowed = { ...list, credentialSubject: { ...subject, statusPurpose: purpose } };
  const result = await checkStatus({
    credential: { ...credential, credentialStatus: entry },
    documentLoader: async (url) => {
      if (url !== listUrl) throw new Error(`${url} is not the status list of this entry`);
      return { document: narrowed };
    },
    suite: null,
    verifyBitstringStatusListCredential: false,
    verifyMatchingIssuers: true,
  });
  const bit = result.results?.[0];
  if (!result.verified || !bit)
    return unread(MALFORMED, result.error instanceof Error ? result.error.message : "the entry could not be read");
  return { read: true, purpose, set: bit.status, detail: at };
}

/** The number of entries of an encoded list, checking its decompressed size before anything inflates it without a bound. */
function bitstringLength(encodedList: string): number {
  assertBitstringSize(encodedList);
  return gunzipSync(Buffer.from(encodedList.slice(1), "base64url")).length * 8;
}

export async function checkCredentialStatus(
  document: Record<string, unknown>,
  issuerId: string,
  issuerDid: ResolvedDidDocument,
  now: Date = new Date(),
): Promise<StatusResult> {
  const entries = asArray(document.credentialStatus);
  if (entries.length === 0) {
    return result(
      "warning",
      "The credential gives no way to check whether it was revoked: only its issuer can tell you.",
      "it has no credentialStatus",
    );
  }
  if (entries.length > MAX_STATUS_ENTRIES)
    return result("failed", "The credential has more status entries than this verifier reads.", `${entries.length} entries`, {
      unverifiable: true,
    });
  const lists = new Map<string, Promise<Record<string, unknown>>>();
  const outcomes = await Promise.all(
    entries.map((entry) => readEntry(document, isObject(entry) ? entry : {}, issuerId, issuerDid, lists, now)),
  );
  const details = outcomes.map((o) => o.detail).join("; ");
  const setPurposes = outcomes.flatMap((o) => (o.read && o.set ? [o.purpose] : []));
  if (setPurposes.includes("revocation"))
    return result("failed", "The issuer has revoked this credential: it no longer vouches for it.", details, { revoked: true });
  if (setPurposes.includes("suspension"))
    return result("failed", "The issuer has suspended this credential: it does not vouch for it for now.", details, { suspended: true });
  const failure = outcomes.find((o) => !o.read && o.kind === "invalid") ?? outcomes.find((o) => !o.read);
  if (failure && !failure.read) {
    return result("failed", failure.summary, details, failure.kind === "invalid" ? { invalid: true } : { unverifiable: true });
  }
  const purposes = [...new Set(outcomes.flatMap((o) => (o.read ? [o.purpose] : [])))];
  const summary =
    purposes.includes("suspension") && purposes.includes("revocation")
      ? "The issuer has neither revoked nor suspended the credential."
      : purposes.includes("suspension")
        ? "The issuer has not suspended the credential."
        : "The issuer has not revoked the credential.";
  return result("passed", summary, details);
}
