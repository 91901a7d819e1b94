// Without the test switch (production): loopback names cannot be claimed, and a claim that points at
// a non-public address is never verified, whatever that address would answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { ApiError } from "../core/errors";
import { startProofServer, type ProofServer } from "../../test/support/domains/proof-server";

let service: typeof import("./service");
let organizations: typeof import("../organizations/service");
let database: typeof import("../db");
let site: ProofServer;

beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  await scratchDatabase("domains-public");
  service = await import("./service");
  organizations = await import("../organizations/service");
  database = await import("../db");
  site = await startProofServer();
});
afterAll(() => site.close());

describe("without WEBHOOK_ALLOW_PRIVATE", () => {
  it("refuses to claim localhost, with or without a port, and writes nothing", async () => {
    const org = (await organizations.createOrganization({ slug: "public-1" })).id;
    for (const domain of ["localhost", site.domain, "uni.localhost"]) {
      const error = await service.claimDomain(org, domain).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).details).toEqual([{ path: "domain", message: "must be a public domain, not localhost" }]);
    }
    expect(await service.domainClaimFor(org)).toBeNull();
  });

  it("never verifies a claim on a non-public address, and sends it nothing", async () => {
    // A claim stored while the switch was on, checked by a server without it.
    const org = (await organizations.createOrganization({ slug: "public-2" })).id;
    const token = "00112233445566778899aabbccddeeff";
    await database.db().domainClaim.create({ data: { organizationId: org, domain: site.domain, token } });
    site.serve(200, `credential-issuer-verification=${token}`);
    const claim = await service.checkDomainNow(org);
    expect(claim).toMatchObject({ verified: false, lastOutcome: "refused_address", lastMessage: expect.stringContaining("Not checked") });
    expect(site.hits).toEqual([]);
    expect(await database.db().domainClaim.findUnique({ where: { organizationId: org } })).toMatchObject({
      verifiedDomain: null,
      verifiedAt: null,
    });
  });
});
