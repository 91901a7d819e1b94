// Domain claims end to end against a real database and a local website (WEBHOOK_ALLOW_PRIVATE=1).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { ApiError } from "../core/errors";
import { startDnsServer, type DnsTestServer } from "../../test/support/domains/dns-server";
import { startProofServer, type ProofServer } from "../../test/support/domains/proof-server";

let service: typeof import("./service");
let organizations: typeof import("../organizations/service");
let database: typeof import("../db");
const sites: ProofServer[] = [];
let dnsServer: DnsTestServer;

beforeAll(async () => {
  dnsServer = await startDnsServer();
  await scratchDatabase("domains", { PUBLIC_URL: "http://localhost:4321", WEBHOOK_ALLOW_PRIVATE: "1", DNS_SERVERS: dnsServer.address });
  service = await import("./service");
  organizations = await import("../organizations/service");
  database = await import("../db");
});
afterAll(() => Promise.all([...sites.map((s) => s.close()), dnsServer.close()]));

let n = 0;
async function newOrg(name = "Demo Academy") {
  const org = await organizations.createOrganization({ slug: `domains-${n++}`, name });
  return org.id;
}
async function newSite() {
  const site = await startProofServer();
  sites.push(site);
  return site;
}
const row = (organizationId: string) => database.db().domainClaim.findUnique({ where: { organizationId } });

async function thrown(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("claiming and checking a domain", () => {
  it("claims, is told what to publish, and is verified once the site serves it", async () => {
    const org = await newOrg();
    const site = await newSite();
    const claim = await service.claimDomain(org, site.domain);
    expect(claim).toMatchObject({ domain: site.domain, verified: false, verifiedAt: null, lastOutcome: null });
    expect(claim.proofLine).toBe(`credential-issuer-verification=${claim.token}`);
    expect(claim.proofUrl).toBe(`http://${site.domain}/.well-known/credential-issuer.txt`);

    site.serve(404, "");
    const missing = await service.checkDomainNow(org);
    expect(missing).toMatchObject({ verified: false, lastOutcome: "http_status" });
    expect((await service.issuerIdentity(org))!.verifiedDomain).toBeNull();

    site.serve(200, `${claim.proofLine}\n`);
    const verified = await service.checkDomainNow(org);
    expect(verified).toMatchObject({ verified: true, lastOutcome: "verified" });
    expect(verified.verifiedAt).toBeInstanceOf(Date);
    const identity = await service.issuerIdentity(org);
    expect(identity).toMatchObject({
      verifiedDomain: site.domain,
      name: "Demo Academy",
      did: expect.stringMatching(/^did:web:localhost%3A4321:organizations:domains-/),
    });
    expect((await row(org))!.nextCheckAt!.getTime()).toBeGreaterThan(Date.now() + service.RECHECK_INTERVAL_MS - 60_000);

    // A second successful check keeps the original verification time.
    const again = await service.checkDomainNow(org);
    expect(again.verifiedAt).toEqual(verified.verifiedAt);
  });

  it("refuses a bad domain with a clear message and writes nothing", async () => {
    const org = await newOrg();
    for (const [bad, message] of [
      ["https://example.edu/", "host name only"],
      ["10.0.0.1", "not an IP address"],
      ["example.edu:8443", "must not include a port"],
    ] as const) {
      const error = await thrown(service.claimDomain(org, bad));
      expect(error.code).toBe("validation_error");
      expect(error.details).toEqual([{ path: "domain", message: expect.stringContaining(message) }]);
    }
    expect(await row(org)).toBeNull();
  });

  it("resets the verification, with a new token, when the domain changes", async () => {
    const org = await newOrg();
    const site = await newSite();
    const first = await service.claimDomain(org, site.domain);
    site.serve(200, first.proofLine);
    await service.checkDomainNow(org);
    // Claiming the same domain again changes nothing.
    expect(await service.claimDomain(org, site.domain.toUpperCase())).toMatchObject({ token: first.token, verified: true });

    const other = await newSite();
    const second = await service.claimDomain(org, other.domain);
    expect(second).toMatchObject({ domain: other.domain, verified: false, verifiedAt: null, lastOutcome: null });
    expect(second.token).not.toBe(first.token);
    expect((await service.issuerIdentity(org))!.verifiedDomain).toBeNull();
  });

  it("keeps a domain verified by one organization away from the others", async () => {
    const real = await newOrg("Demo Academy");
    const impostor = await newOrg("Demo Academy");
    const site = await newSite();
    // Both may claim it while nobody has proved it.
    const realClaim = await service.claimDomain(real, site.domain);
    const impostorClaim = await service.claimDomain(impostor, site.domain);
    // The site serves both tokens (say, by mistake): the first to prove it holds it.
    site.serve(200, `${realClaim.proofLine}\n${impostorClaim.proofLine}\n`);
    expect(await service.checkDomainNow(real)).toMatchObject({ verified: true });
    const lost = await service.checkDomainNow(impostor);
    expect(lost).toMatchObject({
      verified: false,
      lastOutcome: "taken",
      lastMessage: expect.stringContaining("already verified by another organization"),
    });

    // A third organization cannot even claim it now.
    const third = await newOrg();
    const error = await thrown(service.claimDomain(third, site.domain));
    expect(error.code).toBe("conflict");
    expect(error.message).toContain(`${site.domain} is already verified by another organization`);
    expect(await row(third)).toBeNull();

    expect(await service.issuerIdentity(real)).toMatchObject({ verifiedDomain: site.domain });
    expect(await service.issuerIdentity(impostor)).toMatchObject({ name: "Demo Academy", verifiedDomain: null, verifiedAt: null });
  });

  it("checking without a claim says what to do first", async () => {
    const error = await thrown(service.checkDomainNow(await newOrg()));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain("No domain is claimed yet");
  });

  it("removing the claim removes the verification", async () => {
    const org = await newOrg();
    const site = await newSite();
    site.serve(200, (await service.claimDomain(org, site.domain)).proofLine);
    await service.checkDomainNow(org);
    expect(await service.removeDomainClaim(org)).toBe(true);
    expect(await service.domainClaimFor(org)).toBeNull();
    expect((await service.issuerIdentity(org))!.verifiedDomain).toBeNull();
    // And the domain is free for another organization.
    expect(await service.claimDomain(await newOrg(), site.domain)).toMatchObject({ domain: site.domain });
  });
});

describe("the background re-check", () => {
  async function verifiedOrg() {
    const org = await newOrg();
    const site = await newSite();
    const claim = await service.claimDomain(org, site.domain);
    site.serve(200, claim.proofLine);
    await service.checkDomainNow(org);
    return { org, site, claim };
  }
  const makeDue = (org: string) =>
    database.db().domainClaim.update({ where: { organizationId: org }, data: { nextCheckAt: new Date(Date.now() - 1000) } });

  it("drops the verification when the token is gone, and says why", async () => {
    const { org, site } = await verifiedOrg();
    site.serve(200, "nothing here any more");
    await makeDue(org);
    expect(await service.recheckDueDomainClaims()).toBeGreaterThanOrEqual(1);
    const claim = (await service.domainClaimFor(org))!;
    expect(claim).toMatchObject({ verified: false, verifiedAt: null, lastOutcome: "wrong_content" });
    expect(claim.droppedReason).toMatch(/^Verification removed on \d{4}-\d{2}-\d{2}: .*does not contain the line/);
    expect((await row(org))!.nextCheckAt).toBeNull();
    // Verified again, the reason goes away.
    site.serve(200, claim.proofLine);
    expect(await service.checkDomainNow(org)).toMatchObject({ verified: true, droppedReason: null });
  });

  it("keeps the verification through a short outage, not a long one", async () => {
    const { org, site } = await verifiedOrg();
    await site.close();
    for (let attempt = 1; attempt <= 2; attempt++) {
      await makeDue(org);
      await service.recheckDueDomainClaims();
      expect(await service.domainClaimFor(org)).toMatchObject({ verified: true, lastOutcome: "unreachable" });
    }
    await makeDue(org);
    await service.recheckDueDomainClaims();
    expect(await service.domainClaimFor(org)).toMatchObject({
      verified: false,
      droppedReason: expect.stringContaining("Could not reach the website"),
    });
  });

  it("leaves claims that are not due, and checks a due one once when two workers run at once", async () => {
    const { org, site } = await verifiedOrg();
    const before = site.hits.length;
    await service.recheckDueDomainClaims();
    expect(site.hits.length).toBe(before);

    await makeDue(org);
    await Promise.all([service.recheckDueDomainClaims(), service.recheckDueDomainClaims(), service.recheckDueDomainClaims()]);
    expect(site.hits.length).toBe(before + 1);
    expect(await row(org)).toMatchObject({ leaseUntil: null, verifiedDomain: site.domain });
  });

  it("does not record a check's result on a claim that changed meanwhile", async () => {
    const { org, site } = await verifiedOrg();
    const other = await newSite();
    // The site answers slowly; the organization switches domains before it does.
    site.answer((_req, res) => setTimeout(() => res.writeHead(200).end("gone"), 300));
    await makeDue(org);
    const recheck = service.recheckDueDomainClaims();
    await new Promise((r) => setTimeout(r, 100));
    await service.claimDomain(org, other.domain);
    await recheck;
    expect(await service.domainClaimFor(org)).toMatchObject({ domain: other.domain, lastOutcome: null, droppedReason: null });
  });
});

describe("proof by DNS", () => {
  it("verifies through the TXT record, and drops the verification when the record goes", async () => {
    const org = await newOrg();
    const site = await newSite(); // answers 404: no file
    const claim = await service.claimDomain(org, site.domain);
    dnsServer.txt.set("_credential-issuer.localhost", [[claim.proofLine]]);
    expect(await service.checkDomainNow(org)).toMatchObject({
      verified: true,
      lastMessage: "The DNS TXT record _credential-issuer.localhost contains your verification line.",
    });

    dnsServer.txt.delete("_credential-issuer.localhost");
    await database.db().domainClaim.update({ where: { organizationId: org }, data: { nextCheckAt: new Date(Date.now() - 1000) } });
    await service.recheckDueDomainClaims();
    const dropped = (await service.domainClaimFor(org))!;
    expect(dropped.verified).toBe(false);
    expect(dropped.droppedReason).toContain(
      "404 Not Found: the file is not there. No DNS TXT record _credential-issuer.localhost carries it either.",
    );
  });
});

describe("the public profile", () => {
  it("counts issued credentials and shows nothing private", async () => {
    const org = await newOrg("Profile School");
    const slug = (await database.db().organization.findUniqueOrThrow({ where: { id: org } })).slug;
    const profile = await service.issuerProfile(slug);
    expect(profile).toMatchObject({ name: "Profile School", slug, verifiedDomain: null, hasLogo: false, credentialsIssued: 0 });
    expect(Object.keys(profile!).sort()).toEqual([
      "credentialsIssued",
      "did",
      "hasLogo",
      "joinedAt",
      "name",
      "organizationId",
      "slug",
      "verifiedAt",
      "verifiedDomain",
    ]);
    expect(await service.issuerProfile("no-such-org")).toBeNull();
  });
});
