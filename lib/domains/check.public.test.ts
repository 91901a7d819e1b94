// Without the test switch (production): a domain that resolves to a loopback or private address is not
// called at all, and a loopback name is read over https like any other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProofServer, type ProofServer } from "../../test/support/domains/proof-server";
import { proofLine } from "./proof";

let site: ProofServer;
let check: typeof import("./check");
const token = "00112233445566778899aabbccddeeff";

beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  check = await import("./check");
  site = await startProofServer();
  site.serve(200, proofLine(token));
});
afterAll(() => site.close());

describe("checkDomainProof without WEBHOOK_ALLOW_PRIVATE", () => {
  it("always reads over https", () => {
    expect(check.proofUrl("example.edu")).toBe("https://example.edu/.well-known/credential-issuer.txt");
    expect(check.proofUrl(site.domain)).toBe(`https://${site.domain}/.well-known/credential-issuer.txt`);
  });

  it("refuses a domain that resolves to a loopback address, without sending anything", async () => {
    const result = await check.checkDomainProof(site.domain, token);
    expect(result).toMatchObject({ outcome: "refused_address", message: expect.stringContaining("loopback address, not a public one") });
    expect(site.hits).toEqual([]);
  });
});
