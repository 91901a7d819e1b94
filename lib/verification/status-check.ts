// The revocation status check (Bitstring Status List v1.0): find the credential's
// BitstringStatusListEntry, load the status list credential it points at (ours read locally, another
// issuer's fetched through lib/net), check that list's own signature and that the credential's issuer
// published it, then read the credential's bit.
import { gunzipSync } from "node:zlib";
import { config } from "../config";
import type { ResolvedDidDocument } from "../verifiable/document-loader";
import { statusListCredential } from "../verifiable/service";
import { decodeRevocationList } from "../verifiable/status-list";
import { fetchJsonObject, RemoteDocumentError } from "./remote-json";
import type { Check } from "./report";
import { verifyProof } from "./signature-check";

/** A list of 131,072 entries is a few hundred bytes when few are set; this leaves room for big lists. */
const MAX_STATUS_LIST_BYTES = 512 * 1024;
/** The decompressed bits, at most: 16 MiB is 134 million entries. A small gzip cannot inflate past it. */
const MAX_BITSTRING_BYTES = 16 * 1024 * 1024;

export type StatusResult = { check: Check; revoked: boolean; unverifiable: boolean };

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
  unverifiable: false,
  ...extra,
});

const malformed = (detail: string) =>
  result("failed", "The issuer's revocation list is malformed, so whether the credential was revoked cannot be told.", detail, {
    unverifiable: true,
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

export async function checkRevocationStatus(
  document: Record<string, unknown>,
  issuerId: string,
  issuerDid: ResolvedDidDocument,
): Promise<StatusResult> {
  const entries = asArray(document.credentialStatus).filter(isObject);
  if (entries.length === 0) {
    return result(
      "warning",
      "The credential gives no way to check whether it was revoked: only its issuer can tell you.",
      "it has no credentialStatus",
    );
  }
  const entry = entries.find((e) => e.type === "BitstringStatusListEntry" && e.statusPurpose === "revocation");
  if (!entry) {
    const types = entries.map((e) => JSON.stringify(e.type)).join(", ");
    return result(
      "warning",
      "The credential's revocation status uses a method this verifier does not read: only its issuer can tell you.",
      `credentialStatus types: ${types}`,
      { unverifiable: true },
    );
  }
  const listUrl = entry.statusListCredential;
  const index = typeof entry.statusListIndex === "string" && /^\d{1,10}$/.test(entry.statusListIndex) ? Number(entry.statusListIndex) : NaN;
  if (typeof listUrl !== "string" || Number.isNaN(index))
    return malformed("statusListCredential must be a URL and statusListIndex a non-negative integer in a string");

  let list: Record<string, unknown>;
  try {
    list = await loadStatusList(listUrl);
  } catch (error) {
    if (error instanceof RemoteDocumentError) {
      return result(
        "failed",
        "The issuer's revocation list could not be read, so whether the credential was revoked is unknown.",
        error.message,
        { unverifiable: true },
      );
    }
    throw error;
  }
  if (!asArray(list.type).includes("BitstringStatusListCredential")) return malformed(`${listUrl} is not a BitstringStatusListCredential`);
  if (idOf(list.issuer) !== issuerId) {
    return result(
      "failed",
      "The revocation list the credential points at was not published by its issuer.",
      `the list's issuer is ${JSON.stringify(idOf(list.issuer))}, the credential's ${issuerId}`,
    );
  }
  const proof = await verifyProof(list, issuerDid);
  if (!proof.verified) {
    return result("failed", "The issuer's revocation list is not correctly signed, so it cannot be trusted.", proof.reason, {
      unverifiable: true,
    });
  }
  const subject = asArray(list.credentialSubject).find(isObject);
  if (!subject || subject.statusPurpose !== "revocation" || typeof subject.encodedList !== "string") {
    return malformed('the list\'s credentialSubject must have statusPurpose "revocation" and an encodedList');
  }
  let bits: Awaited<ReturnType<typeof decodeRevocationList>>;
  try {
    assertBitstringSize(subject.encodedList);
    bits = await decodeRevocationList(subject.encodedList);
  } catch (error) {
    return malformed(`the encoded list cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (index >= bits.length) return malformed(`the credential's index ${index} is outside the list (${bits.length} entries)`);
  const detail = `entry ${index} of ${listUrl}`;
  if (bits.isSet(index))
    return result("failed", "The issuer has revoked this credential: it no longer vouches for it.", detail, { revoked: true });
  return result("passed", "The issuer has not revoked the credential.", detail);
}
