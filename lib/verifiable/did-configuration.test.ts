import { verifyCredential as independentVerify } from "@digitalcredentials/vc";
import { DataIntegrityProof as IndependentProof } from "@digitalcredentials/data-integrity";
import { cryptosuite as independentCryptosuite } from "@digitalcredentials/eddsa-rdfc-2022-cryptosuite";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("did-configuration", {
  PUBLIC_URL: "http://localhost:4321",
  APP_SECRET: "did-configuration-secret-0123456789abcdef",
});

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { didConfiguration } = await import("./did-configuration");
const { ownDocumentLoader } = await import("./service");
const { verifyDocumentProof } = await import("./signing");
const { ApiError } = await import("../core/errors");

let slug: string;

beforeAll(async () => {
  const org = await createOrganization({ slug: "linked-org", name: "Linked Academy", plan: "premium" });
  slug = org.slug;
  await db().domainClaim.create({
    data: { organizationId: org.id, domain: "academy.example", token: "t", verifiedDomain: "academy.example", verifiedAt: new Date() },
  });
  await createOrganization({ slug: "unlinked-org", name: "Unlinked", plan: "premium" });
});

type Linkage = { "@context": string[]; type: string[]; issuer: string; credentialSubject: { id: string; origin: string }; proof: object[] };

describe("did-configuration.json", () => {
  it("holds a Domain Linkage Credential for the organization's DID and its verified origin, which verifies", async () => {
    const { document, domain } = await didConfiguration(slug);
    expect(domain).toBe("academy.example");
    const config = document as { "@context": string; linked_dids: Linkage[] };
    expect(config["@context"]).toBe("https://identity.foundation/.well-known/did-configuration/v1");
    expect(config.linked_dids).toHaveLength(1);
    const linkage = config.linked_dids[0]!;
    const did = "did:web:localhost%3A4321:organizations:linked-org";
    expect(linkage.type).toEqual(["VerifiableCredential", "DomainLinkageCredential"]);
    expect(linkage.issuer).toBe(did);
    expect(linkage.credentialSubject).toEqual({ id: did, origin: "https://academy.example" });
    expect(linkage.proof).toEqual([expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" })]);

    expect(await verifyDocumentProof(linkage, ownDocumentLoader())).toEqual({ verified: true });
    const independent = await independentVerify({
      credential: linkage,
      suite: new IndependentProof({ cryptosuite: independentCryptosuite }),
      documentLoader: ownDocumentLoader(),
    });
    expect(independent.verified).toBe(true);
    // A changed origin does not verify.
    const moved = { ...linkage, credentialSubject: { ...linkage.credentialSubject, origin: "https://impostor.example" } };
    expect((await verifyDocumentProof(moved, ownDocumentLoader())).verified).toBe(false);
  });

  it("is not found without a verified domain, or for an unknown organization", async () => {
    for (const s of ["unlinked-org", "no-such-org"]) {
      const error = await didConfiguration(s).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as InstanceType<typeof ApiError>).code).toBe("not_found");
    }
  });
});
