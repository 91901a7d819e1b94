// The DIF Well-Known DID Configuration (docs/api.md, DID configuration): an organization with a
// verified domain gets /organizations/<slug>/did-configuration.json, a Domain Linkage Credential for
// its DID and https://<domain>, which an independent verifier accepts; 404 without a verified domain.
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { execSql, queryRows } from "../support/databases";
import { independentlyVerified } from "../support/dcc-verifier";

// The DIF's context as it publishes it (no package carries it): the verifier's copy, not the app's.
const DIF = "https://identity.foundation/.well-known/resources/did-configuration/#";
const DIF_CONTEXT = new Map<string, unknown>([
  [
    "https://identity.foundation/.well-known/did-configuration/v1",
    {
      "@context": [
        {
          "@version": 1.1,
          "@protected": true,
          LinkedDomains: `${DIF}LinkedDomains`,
          DomainLinkageCredential: `${DIF}DomainLinkageCredential`,
          origin: `${DIF}origin`,
          linked_dids: `${DIF}linked_dids`,
        },
      ],
    },
  ],
]);

type Linkage = {
  "@context": string[];
  type: string[];
  issuer: string;
  issuanceDate: string;
  expirationDate: string;
  credentialSubject: { id: string; origin: string };
  proof: { type: string; cryptosuite: string }[];
};

test("a verified domain's did-configuration.json links the organization's DID to it, and verifies", async ({
  org,
  newOrg,
  client,
  server,
}) => {
  const [row] = await queryRows(server.databaseUrl, `SELECT "id" FROM "Organization" WHERE "slug" = '${org.slug}'`);
  const domain = `${org.slug}.example.com`;
  const now = new Date().toISOString();
  await execSql(
    server.databaseUrl,
    `INSERT INTO "DomainClaim" ("organizationId", "domain", "token", "verifiedDomain", "verifiedAt", "createdAt", "updatedAt")
     VALUES ('${String(row!.id)}', '${domain}', 'token', '${domain}', '${now}', '${now}', '${now}')`,
  );
  const http = await client({ version: null });
  const res = await http.get(`/organizations/${org.slug}/did-configuration.json`);
  const config = (await expectStatus(res, 200)) as { "@context": string; linked_dids: Linkage[] };
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  expect(config["@context"]).toBe("https://identity.foundation/.well-known/did-configuration/v1");
  expect(config.linked_dids).toHaveLength(1);
  const linkage = config.linked_dids[0]!;
  const did = `did:web:localhost%3A${server.port}:organizations:${org.slug}`;
  expect(linkage.type).toEqual(["VerifiableCredential", "DomainLinkageCredential"]);
  expect(linkage["@context"].slice(0, 2)).toEqual([
    "https://www.w3.org/2018/credentials/v1",
    "https://identity.foundation/.well-known/did-configuration/v1",
  ]);
  expect(linkage.issuer).toBe(did);
  expect(linkage.credentialSubject).toEqual({ id: did, origin: `https://${domain}` });
  expect(Date.parse(linkage.expirationDate)).toBeGreaterThan(Date.parse(linkage.issuanceDate));
  expect(linkage.proof).toEqual([expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" })]);
  expect(await independentlyVerified(http, linkage, DIF_CONTEXT)).toBe(true);
  const moved = { ...linkage, credentialSubject: { id: did, origin: "https://impostor.example" } };
  expect(await independentlyVerified(http, moved, DIF_CONTEXT)).toBe(false);

  const other = await newOrg();
  await expectError(await http.get(`/organizations/${other.slug}/did-configuration.json`), 404, "not_found");
  await expectError(await http.get(`/organizations/no-such-organization-here/did-configuration.json`), 404, "not_found");
});
