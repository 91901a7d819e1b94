// The W3C VC API's verify operations (POST /vc-api/credentials/verify, /vc-api/presentations/verify;
// docs/api.md, VC API): public, answering 200 {"verified": true, "checks", "warnings", "errors"} when every
// check passes and 400 with "verified": false and an error per failed check otherwise; a body that is
// not such a request is the error envelope. Credentials of another issuer are signed here with a did:key
// and the Digital Bazaar libraries, as a wallet would. Each test calls from an address of its own.
// The app's declarations of these untyped packages; an import would load them at run time.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../lib/verifiable/digitalbazaar.d.ts" />
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../lib/issuers/ed25519-multikey.d.ts" />
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import { didKeyIssuer, suiteFor } from "../support/did-key-issuer";

type Result = { verified: boolean; checks: string[]; warnings: unknown[]; errors: { type: string; title: string; check: string }[] };

async function visitor(client: (o: { version?: string | null; headers?: Record<string, string> }) => Promise<APIRequestContext>) {
  return client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
}

async function post(http: APIRequestContext, path: string, data: unknown, status: number): Promise<Result> {
  return (await expectStatus(await http.post(path, { data }), status)) as Result;
}

test("our own credential verifies (200, verified, no errors); changed or revoked it is 400 naming the failed check", async ({
  api,
  client,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Mary Jackson" });
  const pub = await visitor(client);
  const doc = (await (await pub.get(`/credentials/${credential.publicId}/credential.json`)).json()) as Record<string, any>;

  const ok = await post(pub, "/vc-api/credentials/verify", { verifiableCredential: doc }, 200);
  expect(ok).toMatchObject({ verified: true, warnings: [], errors: [] });
  expect(ok.checks).toEqual(expect.arrayContaining(["proof", "credentialStatus", "dataModel"]));

  const changed = await post(
    pub,
    "/vc-api/credentials/verify",
    { verifiableCredential: { ...doc, credentialSubject: { ...doc.credentialSubject, name: "Mallory" } } },
    400,
  );
  expect(changed.verified).toBe(false);
  expect(changed.errors.map((e) => e.check)).toContain("proof");

  const dataModel = await post(pub, "/vc-api/credentials/verify", { verifiableCredential: { ...doc, credentialSubject: {} } }, 400);
  expect(dataModel.errors[0]).toMatchObject({ check: "dataModel", type: expect.stringContaining("MALFORMED_VALUE_ERROR") });

  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: {} }), 200);
  const revoked = await post(pub, "/vc-api/credentials/verify", { verifiableCredential: doc }, 400);
  expect(revoked.verified).toBe(false);
  expect(revoked.errors.map((e) => e.check)).toEqual(["credentialStatus"]);
});

test("a did:key credential and a presentation signed by its holder verify; a wrong challenge does not", async ({ client }) => {
  const vc = await import("@digitalbazaar/vc");
  const issuer = await didKeyIssuer();
  const holder = await didKeyIssuer();
  const credential = await vc.issue({
    credential: {
      "@context": ["https://www.w3.org/ns/credentials/v2"],
      type: ["VerifiableCredential"],
      issuer: issuer.did,
      validFrom: "2024-01-01T00:00:00Z",
      credentialSubject: { id: holder.did, name: "Ada Lovelace" },
    },
    suite: await suiteFor(issuer.signer),
    documentLoader: issuer.documentLoader,
  });
  const pub = await visitor(client);
  const ok = await post(pub, "/vc-api/credentials/verify", { verifiableCredential: credential }, 200);
  expect(ok).toMatchObject({ verified: true, errors: [] });

  const presentation = vc.createPresentation({ verifiableCredential: [credential], holder: holder.did });
  const signed = await vc.signPresentation({
    presentation,
    suite: await suiteFor(holder.signer),
    challenge: "c-123",
    documentLoader: holder.documentLoader,
  });
  const vp = await post(pub, "/vc-api/presentations/verify", { verifiablePresentation: signed, options: { challenge: "c-123" } }, 200);
  expect(vp).toMatchObject({ verified: true, errors: [] });
  const replay = await post(pub, "/vc-api/presentations/verify", { verifiablePresentation: signed, options: { challenge: "other" } }, 400);
  expect(replay.errors.map((e) => e.check)).toContain("proof");

  // A credential sent as a presentation, and the other way round, are refused with the reason.
  const crossed = await post(pub, "/vc-api/presentations/verify", { verifiablePresentation: credential }, 400);
  expect(crossed.errors[0]!.title).toContain("not a presentation");
  await post(pub, "/vc-api/credentials/verify", { verifiableCredential: signed }, 400);
});

test("bodies that are not verify requests get the error envelope: missing member, not JSON, too deep, too large", async ({ client }) => {
  const pub = await visitor(client);
  await expectError(await pub.post("/vc-api/credentials/verify", { data: {} }), 400, "validation_error");
  await expectError(await pub.post("/vc-api/presentations/verify", { data: { verifiableCredential: {} } }), 400, "validation_error");
  await expectError(
    await pub.post("/vc-api/credentials/verify", { headers: { "Content-Type": "application/json" }, data: "{not json" }),
    400,
    "invalid_json",
  );
  const deep = `{"verifiableCredential":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
  const tooDeep = await pub.post("/vc-api/credentials/verify", { headers: { "Content-Type": "application/json" }, data: deep });
  expect(tooDeep.status()).toBe(400);
  expect(((await tooDeep.json()) as { error: { code: string } }).error.code).toBeTruthy();
  await expectError(
    await pub.post("/vc-api/credentials/verify", { data: { verifiableCredential: { padding: "x".repeat(2 * 1024 * 1024) } } }),
    413,
    "payload_too_large",
  );
});
