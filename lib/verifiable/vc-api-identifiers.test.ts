// The VC API issuer keeps a credential's identifiers as the client sent them: a value it cannot use is
// refused, never silently replaced (found by the W3C VC Data Model 2.0 suite, which sends `"id": null`).
import { describe, expect, it } from "vitest";
import { credentialToSign } from "./vc-api";

const DID = "did:web:localhost%3A4321:organizations:acme";

const credential = (extra: Record<string, unknown> = {}) => ({
  "@context": ["https://www.w3.org/ns/credentials/v2"],
  type: ["VerifiableCredential"],
  credentialSubject: { id: "did:example:alice", name: "Alice" },
  ...extra,
});

function refusedPath(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { details?: { path: string }[] }).details?.[0]?.path;
  }
  return undefined;
}

describe("credentialToSign: the credential's id", () => {
  it("refuses an id that is null instead of replacing it with a new one", () => {
    expect(refusedPath(() => credentialToSign({ credential: credential({ id: null }) }, DID))).toBe("credential.id");
  });

  it("refuses an id that is not a URL", () => {
    expect(refusedPath(() => credentialToSign({ credential: credential({ id: "not a url" }) }, DID))).toBe("credential.id");
  });

  it("keeps an id the client sent", () => {
    expect(credentialToSign({ credential: credential({ id: "urn:uuid:0b6f6bd0-1d7e-4b35-9a5e-3d1c7b0c2f11" }) }, DID).id).toBe(
      "urn:uuid:0b6f6bd0-1d7e-4b35-9a5e-3d1c7b0c2f11",
    );
  });

  it("gives a credential without an id a new urn:uuid, or the one the options name", () => {
    expect(credentialToSign({ credential: credential() }, DID).id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(credentialToSign({ credential: credential(), options: { credentialId: "urn:example:1" } }, DID).id).toBe("urn:example:1");
  });
});
