import { describe, expect, it } from "vitest";
import { gunzipSync } from "node:zlib";
import { buildStatusListCredential, decodeRevocationList, encodeRevocationList, STATUS_LIST_LENGTH } from "./status-list";

describe("revocation bitstrings", () => {
  it("round-trips: exactly the revoked indexes read as set", async () => {
    const revoked = [0, 7, 8, 42, 131_071];
    const encoded = await encodeRevocationList(STATUS_LIST_LENGTH, revoked);
    const list = await decodeRevocationList(encoded);
    expect(list.length).toBe(131_072);
    for (let i = 0; i < STATUS_LIST_LENGTH; i++) expect(list.isSet(i)).toBe(revoked.includes(i));
  });

  it("is multibase base64url (prefix u) of a gzip of the bits, the first index being the left-most bit", async () => {
    const encoded = await encodeRevocationList(STATUS_LIST_LENGTH, [0, 9]);
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/);
    const bits = gunzipSync(Buffer.from(encoded.slice(1), "base64url"));
    expect(bits.length).toBe(STATUS_LIST_LENGTH / 8);
    expect(bits[0]).toBe(0b1000_0000);
    expect(bits[1]).toBe(0b0100_0000);
    expect(bits.subarray(2).every((b) => b === 0)).toBe(true);
  });

  it("an empty list is small (it compresses), and a malformed one is refused", async () => {
    expect((await encodeRevocationList(STATUS_LIST_LENGTH, [])).length).toBeLessThan(300);
    await expect(decodeRevocationList("not-multibase")).rejects.toThrow();
    await expect(decodeRevocationList("uAAAA")).rejects.toThrow();
  });

  it("the status list credential has the shape Bitstring Status List v1.0 gives", () => {
    const doc = buildStatusListCredential({
      listUrl: "https://x.example/organizations/a/status/1",
      issuerDid: "did:web:x.example:organizations:a",
      encodedList: "uH4sI",
      validFrom: new Date("2025-01-02T03:04:05.678Z"),
    });
    expect(doc).toEqual({
      "@context": ["https://www.w3.org/ns/credentials/v2"],
      id: "https://x.example/organizations/a/status/1",
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: "did:web:x.example:organizations:a",
      validFrom: "2025-01-02T03:04:05Z",
      credentialSubject: {
        id: "https://x.example/organizations/a/status/1#list",
        type: "BitstringStatusList",
        statusPurpose: "revocation",
        encodedList: "uH4sI",
      },
    });
  });
});
