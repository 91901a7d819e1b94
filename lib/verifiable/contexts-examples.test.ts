// The VC 2.0 examples context is bundled: the specification's examples, the W3C test suites and many
// wallets' sample credentials name it, and without it they could be neither signed nor verified here.
import { describe, expect, it } from "vitest";
import { bundledContext } from "./contexts";
import { credentialToSign } from "./vc-api";

const EXAMPLES_V2 = "https://www.w3.org/ns/credentials/examples/v2";

describe("the VC 2.0 examples context", () => {
  it("is bundled, as the W3C publishes it (one @vocab)", () => {
    expect(bundledContext(EXAMPLES_V2)).toEqual({ "@context": { "@vocab": "https://www.w3.org/ns/credentials/examples#" } });
  });

  it("is accepted in a credential sent to the VC API issuer", () => {
    const { credential } = credentialToSign(
      {
        credential: {
          "@context": ["https://www.w3.org/ns/credentials/v2", EXAMPLES_V2],
          type: ["VerifiableCredential", "ExampleDegreeCredential"],
          credentialSubject: { id: "did:example:alice", degree: { type: "ExampleBachelorDegree" } },
        },
      },
      "did:web:localhost%3A4321:organizations:acme",
    );
    expect(credential["@context"]).toEqual(["https://www.w3.org/ns/credentials/v2", EXAMPLES_V2]);
  });
});
