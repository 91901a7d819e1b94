import { describe, expect, it } from "vitest";
import { didDocument, didWebFor } from "./did-web";

describe("did:web identifiers", () => {
  it("a host without a port: the host, then each path segment after a colon", () => {
    expect(didWebFor("https://certs.example.com", ["organizations", "acme"])).toBe("did:web:certs.example.com:organizations:acme");
  });

  it("a port: its colon percent-encoded, as the method requires", () => {
    expect(didWebFor("http://localhost:3000", ["organizations", "acme"])).toBe("did:web:localhost%3A3000:organizations:acme");
  });

  it("a default port is not part of the DID; a base path is", () => {
    expect(didWebFor("https://example.com:443/cis/", ["organizations", "acme"])).toBe("did:web:example.com:cis:organizations:acme");
  });

  it("a colon inside a segment is percent-encoded so it cannot read as a separator", () => {
    expect(didWebFor("https://example.com/a%3Ab", ["x"])).toBe("did:web:example.com:a%3Ab:x");
  });

  it("a host is lower-cased and internationalised names are punycode", () => {
    expect(didWebFor("https://Bücher.Example", ["o"])).toBe("did:web:xn--bcher-kva.example:o");
  });
});

describe("DID documents", () => {
  it("lists every key as a Multikey for assertions and authentication, with the DID core and Multikey contexts", () => {
    const did = "did:web:example.com:organizations:acme";
    const doc = didDocument(did, [
      { id: "k1", publicKeyMultibase: "z6Mkold" },
      { id: "k2", publicKeyMultibase: "z6Mknew" },
    ]);
    expect(doc).toEqual({
      "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
      id: did,
      verificationMethod: [
        { id: `${did}#k1`, type: "Multikey", controller: did, publicKeyMultibase: "z6Mkold" },
        { id: `${did}#k2`, type: "Multikey", controller: did, publicKeyMultibase: "z6Mknew" },
      ],
      assertionMethod: [`${did}#k1`, `${did}#k2`],
      authentication: [`${did}#k1`, `${did}#k2`],
    });
  });
});
