import { describe, expect, it } from "vitest";
import { checkCredentialDataModel } from "./data-model";

// The W3C data model suite's relatedResource fixture (the VC 2.0 context and its published digests).
const related = {
  id: "https://www.w3.org/ns/credentials/v2",
  mediaType: "application/ld+json",
  digestSRI: "sha384-NSOcNpmdIVUxIJGvGUoe22FjTWrXiaXlsZ8q6912LdnR3KraQO2n75Ica4wK4Qeg",
  digestMultibase: "uJKGMkOmFbVJhEfKTduMC2XCyvRAYLjOVmZWwIH1wQ7k",
};

function credential(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    type: ["VerifiableCredential"],
    issuer: "did:example:issuer",
    credentialSubject: { id: "did:example:subject" },
    ...extra,
  };
}

const reasonOf = (extra: Record<string, unknown>) => {
  const result = checkCredentialDataModel(credential(extra));
  return result.ok ? null : result.reason;
};

describe("the data model's rules", () => {
  it.each([
    ["a digestSRI", { relatedResource: { id: related.id, digestSRI: related.digestSRI } }],
    ["a digestMultibase", { relatedResource: { id: related.id, digestMultibase: related.digestMultibase } }],
    ["a media type, in an array", { relatedResource: [{ id: related.id, mediaType: related.mediaType, digestSRI: related.digestSRI }] }],
    ["a credentialStatus without an id", { credentialStatus: { type: "CredentialStatusList2017" } }],
    ["a credentialStatus with an id", { credentialStatus: { id: "did:example:status", type: "CredentialStatusList2017" } }],
  ])("accept a credential with %s", (_what, extra) => {
    expect(reasonOf(extra)).toBeNull();
  });

  it.each([
    ["relatedResource as strings", { relatedResource: [related.id] }, /not a string/],
    ["a relatedResource without an id", { relatedResource: [{ digestMultibase: related.digestMultibase }] }, /id that is a URL/],
    [
      "two relatedResource objects with one id",
      {
        relatedResource: [
          { id: related.id, digestSRI: related.digestSRI },
          { id: related.id, digestMultibase: related.digestMultibase },
        ],
      },
      /unique/,
    ],
    ["a relatedResource without a digest", { relatedResource: [{ id: related.id }] }, /digestSRI or a digestMultibase/],
    [
      "a digestSRI in base64url",
      { relatedResource: [{ id: related.id, digestSRI: "sha384-_rCVIV7fSXXTNIvpiq26jRDyj8JG8TDjij-tD0ewLk4JpnXEz6a5AeeY_1qQ0d0P" }] },
      /Subresource Integrity/,
    ],
    ["a digestSRI of an unknown algorithm", { relatedResource: [{ id: related.id, digestSRI: "md5-AAAA" }] }, /Subresource Integrity/],
    [
      "a typeless credentialSchema",
      { credentialSchema: { id: "https://schema.example/1" } },
      /credentialSchema must be an object with a type/,
    ],
    ["a typeless refreshService", { refreshService: { id: "https://refresh.example/1" } }, /refreshService must be an object with a type/],
    [
      "a credentialStatus with two ids",
      { credentialStatus: { id: ["did:example:status:1", "did:example:status:2"], type: "X" } },
      /one URL/,
    ],
    ["a credentialStatus whose id is not a URL", { credentialStatus: { id: "not a url", type: "X" } }, /URL|URI/],
    ["a credentialStatus whose type is a number", { credentialStatus: { id: "did:example:status", type: 2 } }, /term or URL/],
  ])("refuse %s, naming the problem", (_what, extra, reason) => {
    expect(reasonOf(extra)).toMatch(reason);
  });
});
