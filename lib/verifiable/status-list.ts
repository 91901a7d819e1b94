// Bitstring Status List v1.0, revocation only: a list of bits, one per credential, gzip-compressed and
// multibase base64url-encoded by @digitalbazaar/vc-bitstring-status-list, inside a
// BitstringStatusListCredential (VC 2.0, whose context defines the terms). Pure: no I/O.
import { createList, decodeList } from "@digitalbazaar/vc-bitstring-status-list";
import { VC_V2_CONTEXT } from "./contexts";

/** Entries per list: the specification's minimum (16 KiB of bits), for herd privacy. */
export const STATUS_LIST_LENGTH = 131_072;

/** The encoded list (`u` + base64url of the gzip of the bits) with the bits at `revoked` set. */
export async function encodeRevocationList(length: number, revoked: Iterable<number>): Promise<string> {
  const list = await createList({ length });
  for (const index of revoked) list.setStatus(index, true);
  return list.encode();
}

/** Whether each asked index is set in an encoded list; throws when the list cannot be decoded. */
export async function decodeRevocationList(encodedList: string): Promise<{ length: number; isSet: (index: number) => boolean }> {
  const list = await decodeList({ encodedList });
  return { length: list.length, isSet: (index) => list.getStatus(index) };
}

export function buildStatusListCredential(input: { listUrl: string; issuerDid: string; encodedList: string; validFrom: Date }) {
  return {
    "@context": [VC_V2_CONTEXT],
    id: input.listUrl,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: input.issuerDid,
    // Whole seconds: VC 2.0's dateTimeStamp allows fractions, but some verifiers' parsers do not.
    validFrom: `${input.validFrom.toISOString().slice(0, 19)}Z`,
    credentialSubject: {
      id: `${input.listUrl}#list`,
      type: "BitstringStatusList",
      statusPurpose: "revocation",
      encodedList: input.encodedList,
    },
  };
}
