// The VC API's issuing half (docs/api.md, VC API): POST /vc-api/credentials/issue signs a VC 2.0
// credential as the token's organization with a status entry, POST /vc-api/credentials/status revokes
// it; checked over HTTP with an independent verifier and the status list read here with node:zlib.
import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { createOrgs } from "../support/state";
import { independentlyVerified } from "../support/dcc-verifier";

type Signed = {
  id: string;
  issuer: string | { id: string };
  proof: { type: string; cryptosuite: string }[];
  credentialStatus: { type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string };
};

function credential(extra: Record<string, unknown> = {}) {
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    type: ["VerifiableCredential"],
    credentialSubject: { id: "did:example:alice", name: "Alice" },
    ...extra,
  };
}

async function vcApi(http: APIRequestContext, token: string) {
  return {
    issue: (data: unknown) =>
      http.post("/vc-api/credentials/issue", { data: data as object, headers: { Authorization: `Bearer ${token}` } }),
    status: (data: unknown) =>
      http.post("/vc-api/credentials/status", { data: data as object, headers: { Authorization: `Bearer ${token}` } }),
  };
}

async function statusBit(http: APIRequestContext, signed: Signed): Promise<boolean> {
  const list = (await expectStatus(await http.get(signed.credentialStatus.statusListCredential), 200)) as {
    credentialSubject: { encodedList: string };
  };
  const bits = gunzipSync(Buffer.from(list.credentialSubject.encodedList.slice(1), "base64url"));
  const index = Number(signed.credentialStatus.statusListIndex);
  return ((bits[index >> 3]! >> (7 - (index & 7))) & 1) === 1;
}

const revoke = (credentialId: string) => ({ credentialId, credentialStatus: [{ type: "BitstringStatusListEntry", status: "revoked" }] });

test("issue signs as the organization with a status entry; status revokes it (again: the same 200); another token: 404", async ({
  org,
  newOrg,
  client,
  server,
}) => {
  const http = await client({ version: null });
  const api = await vcApi(http, org.token);
  const res = await api.issue({ credential: credential() });
  const body = (await expectStatus(res, 201)) as { verifiableCredential: Signed };
  const signed = body.verifiableCredential;
  const did = `did:web:localhost%3A${server.port}:organizations:${org.slug}`;
  expect(signed.issuer).toBe(did);
  expect(signed.proof).toEqual([expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" })]);
  expect(signed.credentialStatus).toMatchObject({ type: "BitstringStatusListEntry", statusPurpose: "revocation" });
  expect(signed.credentialStatus.statusListCredential).toBe(`http://localhost:${server.port}/organizations/${org.slug}/status/1`);
  expect(await independentlyVerified(http, signed)).toBe(true);
  expect(await statusBit(http, signed)).toBe(false);

  const other = await newOrg({ plan: "premium" });
  await expectError(await (await vcApi(http, other.token)).status(revoke(signed.id)), 404, "not_found");
  await expectError(await api.status(revoke("urn:uuid:00000000-0000-4000-8000-000000000000")), 404, "not_found");

  const revoked = (await expectStatus(await api.status(revoke(signed.id)), 200)) as { revokedAt: string };
  expect(await statusBit(http, signed)).toBe(true);
  // Revocation is final: asking again changes nothing and answers the same.
  expect(await expectStatus(await api.status(revoke(signed.id)), 200)).toEqual(revoked);
  await expectError(
    await api.status({ credentialId: signed.id, credentialStatus: [{ type: "BitstringStatusListEntry", status: "active" }] }),
    400,
    "validation_error",
  );
});

test("refusals: 401 without a token, 400 with the reason for what cannot be signed", async ({ org, client }) => {
  const http = await client({ version: null });
  await expectError(await http.post("/vc-api/credentials/issue", { data: { credential: credential() } }), 401, "unauthorized");
  const api = await vcApi(http, org.token);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ "@context": ["https://www.w3.org/2018/credentials/v1"] }, /VC 1\.1/],
    [{ "@context": ["https://www.w3.org/ns/credentials/v2", "https://example.com/unknown-context.json"] }, /bundled/],
    [{ issuer: "did:web:example.com" }, /DID/],
    [{ credentialSubject: {} }, /credentialSubject/],
    // The verifier's data-model rules run before signing, with the rule named.
    [{ credentialSchema: { id: "https://schema.example/1" } }, /credentialSchema must be an object with a type/],
    [{ refreshService: { id: "https://refresh.example/1" } }, /refreshService must be an object with a type/],
    [{ relatedResource: ["https://www.w3.org/ns/credentials/v2"] }, /relatedResource/],
  ];
  for (const [extra, reason] of cases) {
    await expectError(await api.issue({ credential: credential(extra) }), 400, "validation_error", { message: reason });
  }
  await expectError(
    await http.post("/vc-api/credentials/issue", {
      data: "not json",
      headers: { Authorization: `Bearer ${org.token}`, "Content-Type": "application/json" },
    }),
    400,
    "invalid_json",
  );
});

test("a credential's own credentialStatus is signed as sent, with ours added beside it", async ({ org, client }) => {
  const api = await vcApi(await client({ version: null }), org.token);
  const own = { id: "did:example:status", type: "CredentialStatusList2017" };
  const signed = (await expectStatus(
    await api.issue({
      credential: credential({
        "@context": [
          "https://www.w3.org/ns/credentials/v2",
          { CredentialStatusList2017: "https://example.org/examples#CredentialStatusList2017" },
        ],
        credentialStatus: own,
      }),
    }),
    201,
  )) as { verifiableCredential: { credentialStatus: unknown[] } };
  expect(signed.verifiableCredential.credentialStatus).toEqual([
    own,
    expect.objectContaining({ type: "BitstringStatusListEntry", statusPurpose: "revocation" }),
  ]);
});

test("a free organization over its monthly quota gets 402 payment_required, with nothing signed", async ({
  scratchDatabase,
  startServer,
  client,
  server,
}) => {
  const databaseUrl = await scratchDatabase();
  const [free] = await createOrgs({ databaseUrl, dataDir: server.dataDir }, `vcq-${randomBytes(3).toString("hex")}`, 1, 0);
  const quotaServer = await startServer({ DATABASE_URL: databaseUrl, FREE_PLAN_MONTHLY_ISSUES: "1" });
  const http = await client({ baseURL: quotaServer.baseURL, version: null });
  const api = await vcApi(http, free!.token);
  await expectStatus(await api.issue({ credential: credential() }), 201);
  await expectError(await api.issue({ credential: credential() }), 402, "payment_required");
});
