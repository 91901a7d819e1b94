// OpenID for Verifiable Credential Issuance 1.0 (docs/api.md, OpenID4VCI): an organization's issued
// credential claimed by a wallet app. The main test drives Sphereon's @sphereon/oid4vci-client (an
// independent OpenID4VCI client library, unchanged, as its README shows) from the offer link to the
// credential, then checks the result with the independent verifier of verifiable-credentials.spec.ts
// and sees that revoking the credential revokes the wallet's copy. The others speak the protocol over
// raw HTTP to reach each error the standard names.
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { OpenID4VCIClientV1_0_15 } from "@sphereon/oid4vci-client";
import { SignJWT, exportJWK, generateKeyPair, importJWK, base64url, type CryptoKey, type JWK } from "jose";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { createCredential, issue, newGroup, uniqueEmail, type Credential } from "../support/credentials";
import { independentlyVerified, revocationBit } from "../support/independent-vc";
import { signInToWallet } from "../support/wallet-session";
import { uniqueAddress } from "../support/wallet-helpers";

type Offer = {
  credentialOffer: {
    credential_issuer: string;
    credential_configuration_ids: string[];
    grants: Record<string, { "pre-authorized_code": string }>;
  };
  link: string;
  expiresAt: string;
};
type BoundCredential = {
  id: string;
  type: string[];
  issuer: { id: string; name: string };
  credentialSubject: { id: string; name: string };
  credentialStatus: { statusListIndex: string; statusListCredential: string };
  proof: unknown;
};

const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";
const CONFIGURATION_ID = "OpenBadgeCredential";

async function issuedCredential(api: APIRequestContext, name = "Forklift Safety"): Promise<Credential> {
  const group = await newGroup(api, { name });
  const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Grace Hopper", email: uniqueEmail("oid4vci") } });
  return issue(api, draft.id);
}

async function offerFor(api: APIRequestContext, id: string): Promise<Offer> {
  return (await expectStatus(await api.post(`/v1/credentials/${id}/credential-offer`), 201)) as Offer;
}

const codeOf = (offer: Offer) => offer.credentialOffer.grants[PRE_AUTHORIZED_GRANT]!["pre-authorized_code"];
const issuerPath = (offer: Offer) => new URL(offer.credentialOffer.credential_issuer).pathname;

function redeem(http: APIRequestContext, offer: Offer, code = codeOf(offer)): Promise<APIResponse> {
  return http.post(`${issuerPath(offer)}/oid4vci/token`, { form: { grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code } });
}

async function accessToken(http: APIRequestContext, offer: Offer): Promise<string> {
  const body = (await expectStatus(await redeem(http, offer), 200)) as { access_token: string; token_type: string };
  expect(body.token_type).toBe("Bearer");
  return body.access_token;
}

async function freshNonce(http: APIRequestContext, offer: Offer): Promise<string> {
  const res = await http.post(`${issuerPath(offer)}/oid4vci/nonce`);
  expect(res.headers()["cache-control"]).toContain("no-store");
  return ((await expectStatus(res, 200)) as { c_nonce: string }).c_nonce;
}

type Holder = { key: CryptoKey; alg: string; header: { kid: string } | { jwk: JWK }; did: string };

/** An Ed25519 did:key holder (the key made by Digital Bazaar's multikey package, signing with jose). */
async function didKeyHolder(): Promise<Holder> {
  const pair = await Ed25519Multikey.generate();
  const jwk = (await Ed25519Multikey.toJwk({ keyPair: pair, secretKey: true } as never)) as JWK;
  // The package keeps the 64-byte secret (seed and public key); a JWK's d is the 32-byte seed.
  jwk.d = base64url.encode(base64url.decode(jwk.d!).slice(0, 32));
  const did = `did:key:${pair.publicKeyMultibase}`;
  return {
    key: (await importJWK(jwk, "EdDSA")) as CryptoKey,
    alg: "EdDSA",
    header: { kid: `${did}#${pair.publicKeyMultibase}` },
    did,
  };
}

/** A P-256 holder named by a did:jwk kid, or (bare) by a jwk header. */
async function p256Holder(bare: boolean): Promise<Holder> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const did = `did:jwk:${base64url.encode(JSON.stringify({ crv, kty, x, y }))}`;
  return { key: privateKey, alg: "ES256", header: bare ? { jwk: { kty, crv, x, y } } : { kid: `${did}#0` }, did };
}

function proof(holder: Holder, claims: { aud: string; nonce?: string }, typ = "openid4vci-proof+jwt"): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: holder.alg, typ, ...holder.header })
    .setIssuedAt()
    .sign(holder.key);
}

function requestCredential(http: APIRequestContext, offer: Offer, token: string, body: unknown): Promise<APIResponse> {
  return http.post(`${issuerPath(offer)}/oid4vci/credential`, { headers: { Authorization: `Bearer ${token}` }, data: body });
}

async function expectOauthError(res: APIResponse, status: number, error: string): Promise<void> {
  const text = await res.text();
  expect(res.status(), text).toBe(status);
  expect(JSON.parse(text)).toMatchObject({ error });
}

test("metadata: the issuer and its authorization server, where OpenID4VCI 1.0 and its drafts look", async ({
  api,
  org,
  client,
  server,
}) => {
  const http = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  const issuer = `http://localhost:${server.port}/organizations/${org.slug}`;
  const res = await http.get(`/.well-known/openid-credential-issuer/organizations/${org.slug}`);
  const metadata = await expectStatus(res, 200);
  expect(res.headers()["access-control-allow-origin"]).toBe("*");
  expect(metadata).toMatchObject({
    credential_issuer: issuer,
    credential_endpoint: `${issuer}/oid4vci/credential`,
    nonce_endpoint: `${issuer}/oid4vci/nonce`,
    display: [{ name: expect.any(String) }],
  });
  expect(metadata.credential_configurations_supported[CONFIGURATION_ID]).toMatchObject({
    format: "ldp_vc",
    credential_definition: {
      "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
      type: ["VerifiableCredential", "OpenBadgeCredential"],
    },
    cryptographic_binding_methods_supported: ["did:key", "did:jwk", "jwk"],
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: expect.arrayContaining(["EdDSA", "ES256"]) } },
  });
  expect(await expectStatus(await http.get(`/organizations/${org.slug}/.well-known/openid-credential-issuer`), 200)).toEqual(metadata);

  const authorizationServer = await expectStatus(await http.get(`/.well-known/oauth-authorization-server/organizations/${org.slug}`), 200);
  expect(authorizationServer).toMatchObject({
    issuer,
    token_endpoint: `${issuer}/oid4vci/token`,
    grant_types_supported: [PRE_AUTHORIZED_GRANT],
  });
  const preflight = await http.fetch(`/organizations/${org.slug}/oid4vci/credential`, { method: "OPTIONS" });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()["access-control-allow-headers"]).toContain("Authorization");

  await expectError(await http.get(`/organizations/${org.slug}/.well-known/openid-configuration`), 404, "not_found");
  await expectError(await http.get("/.well-known/openid-credential-issuer/organizations/no-such-organization-here"), 404, "not_found");
  await expectError(await http.get("/.well-known/oauth-authorization-server/organizations/no-such-organization-here"), 404, "not_found");
  void api;
});

test("a wallet app claims the credential with an independent OpenID4VCI client; revoking revokes its copy", async ({
  api,
  org,
  client,
}) => {
  const credential = await issuedCredential(api);
  const offer = await offerFor(api, credential.id);
  expect(offer.link).toMatch(/^openid-credential-offer:\/\/\?credential_offer=/);
  expect(JSON.parse(new URL(offer.link).searchParams.get("credential_offer")!)).toEqual(offer.credentialOffer);
  expect(offer.credentialOffer.credential_configuration_ids).toEqual([CONFIGURATION_ID]);
  const expiresIn = Date.parse(offer.expiresAt) - Date.now();
  expect(expiresIn).toBeGreaterThan(9 * 60_000);
  expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);

  const holder = await didKeyHolder();
  const wallet = await OpenID4VCIClientV1_0_15.fromURI({ uri: offer.link, retrieveServerMetadata: true });
  await wallet.acquireAccessToken({});
  const response = await wallet.acquireCredentials({
    credentialConfigurationId: CONFIGURATION_ID,
    format: "ldp_vc",
    kid: (holder.header as { kid: string }).kid,
    alg: "EdDSA",
    proofCallbacks: {
      signCallback: async (jwt, kid) =>
        new SignJWT({ ...jwt.payload })
          .setProtectedHeader({ ...jwt.header, alg: "EdDSA", kid: kid ?? (holder.header as { kid: string }).kid })
          .sign(holder.key),
    },
  });
  const claimed = ((response as { credentials?: { credential: unknown }[] }).credentials?.[0]?.credential ??
    null) as BoundCredential | null;
  expect(claimed, JSON.stringify(response).slice(0, 500)).not.toBeNull();
  console.log(
    `@sphereon/oid4vci-client claimed: ${JSON.stringify({ id: claimed!.id, type: claimed!.type, issuer: claimed!.issuer.id, subject: claimed!.credentialSubject.id })}`,
  );

  expect(claimed!.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
  expect(claimed!.credentialSubject.id).toBe(holder.did);
  expect(claimed!.credentialSubject.name).toBe("Grace Hopper");
  expect(claimed!.issuer.id).toContain(`:organizations:${org.slug}`);
  const anonymous = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  expect(await independentlyVerified(anonymous, claimed!)).toBe(true);
  // The same status entry as the credential's own document: one revocation covers every copy.
  const own = await expectStatus(await api.get(`/v1/credentials/${credential.id}/verifiable-credential`), 200);
  expect(claimed!.credentialStatus).toEqual(own.credentialStatus);
  expect(await revocationBit(anonymous, claimed!)).toBe(false);
  // Tampering with the subject breaks the signature.
  expect(
    await independentlyVerified(anonymous, { ...claimed!, credentialSubject: { ...claimed!.credentialSubject, id: "did:example:thief" } }),
  ).toBe(false);

  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: { reason: "Issued in error" } }), 200);
  expect(await revocationBit(anonymous, claimed!)).toBe(true);
  // The signature stays the issuer's; the status says revoked.
  expect(await independentlyVerified(anonymous, claimed!)).toBe(true);
});

test("did:jwk and bare jwk holders; the answer has the 1.0 shape", async ({ api, client }) => {
  const http = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  for (const bare of [false, true]) {
    const credential = await issuedCredential(api);
    const offer = await offerFor(api, credential.id);
    const token = await accessToken(http, offer);
    const holder = await p256Holder(bare);
    const jwt = await proof(holder, { aud: offer.credentialOffer.credential_issuer, nonce: await freshNonce(http, offer) });
    const res = await requestCredential(http, offer, token, { credential_configuration_id: CONFIGURATION_ID, proofs: { jwt: [jwt] } });
    const body = (await expectStatus(res, 200)) as { credentials: { credential: BoundCredential }[] };
    expect(res.headers()["cache-control"]).toContain("no-store");
    expect(body.credentials).toHaveLength(1);
    expect(body.credentials[0]!.credential.credentialSubject.id).toBe(holder.did);
    expect(await independentlyVerified(http, body.credentials[0]!.credential)).toBe(true);
  }
});

test("the token endpoint: a code works once; wrong, reused and concurrent redemptions get invalid_grant", async ({ api, client }) => {
  const http = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  const credential = await issuedCredential(api);
  await expectOauthError(await redeem(http, await offerFor(api, credential.id), "not-a-code-we-gave"), 400, "invalid_grant");

  const offer = await offerFor(api, credential.id);
  await accessToken(http, offer);
  await expectOauthError(await redeem(http, offer), 400, "invalid_grant");

  const raced = await offerFor(api, credential.id);
  const answers = await Promise.all(Array.from({ length: 6 }, () => redeem(http, raced)));
  expect(answers.map((a) => a.status()).sort()).toEqual([200, 400, 400, 400, 400, 400]);

  const badGrant = await http.post(`${issuerPath(offer)}/oid4vci/token`, { form: { grant_type: "authorization_code", code: "x" } });
  expect(badGrant.status()).toBe(400);
  expect(((await badGrant.json()) as { error: string }).error).toMatch(/^(unsupported_grant_type|invalid_request)$/);
});

test("the credential endpoint: invalid_token, invalid_nonce, invalid_proof, unknown configuration, revoked meanwhile", async ({
  api,
  client,
}) => {
  const http = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  const credential = await issuedCredential(api);
  const offer = await offerFor(api, credential.id);
  const token = await accessToken(http, offer);
  const aud = offer.credentialOffer.credential_issuer;
  const holder = await didKeyHolder();
  const request = (jwt: string) => ({ credential_configuration_id: CONFIGURATION_ID, proofs: { jwt: [jwt] } });

  // No token, a wrong token: 401 with WWW-Authenticate.
  const noToken = await http.post(`${issuerPath(offer)}/oid4vci/credential`, { data: {} });
  expect(noToken.status()).toBe(401);
  expect(noToken.headers()["www-authenticate"]).toMatch(/^Bearer/);
  const wrongToken = await requestCredential(http, offer, "not-a-token", request("x"));
  await expectOauthError(wrongToken, 401, "invalid_token");
  expect(wrongToken.headers()["www-authenticate"]).toContain('error="invalid_token"');

  // Unknown nonce, and a nonce used twice.
  await expectOauthError(
    await requestCredential(http, offer, token, request(await proof(holder, { aud, nonce: "made-up" }))),
    400,
    "invalid_nonce",
  );
  const nonce = await freshNonce(http, offer);
  const good = await proof(holder, { aud, nonce });
  await expectStatus(await requestCredential(http, offer, token, request(good)), 200);
  await expectOauthError(await requestCredential(http, offer, token, request(good)), 400, "invalid_nonce");

  // Bad proofs: wrong audience, wrong typ, signed by another key than the kid names, not a JWT, none at all.
  const other = await didKeyHolder();
  const forged = { ...other, header: holder.header };
  for (const jwt of [
    await proof(holder, { aud: "https://elsewhere.example", nonce: await freshNonce(http, offer) }),
    await proof(holder, { aud, nonce: await freshNonce(http, offer) }, "JWT"),
    await proof(forged, { aud, nonce: await freshNonce(http, offer) }),
  ]) {
    await expectOauthError(await requestCredential(http, offer, token, request(jwt)), 400, "invalid_proof");
  }
  await expectOauthError(
    await requestCredential(http, offer, token, { credential_configuration_id: CONFIGURATION_ID }),
    400,
    "invalid_proof",
  );

  // The draft-15 singular `proof` is read too.
  const single = await proof(holder, { aud, nonce: await freshNonce(http, offer) });
  await expectStatus(
    await requestCredential(http, offer, token, {
      credential_configuration_id: CONFIGURATION_ID,
      proof: { proof_type: "jwt", jwt: single },
    }),
    200,
  );

  const unknown = await proof(holder, { aud, nonce: await freshNonce(http, offer) });
  await expectOauthError(
    await requestCredential(http, offer, token, { credential_configuration_id: "SomethingElse", proofs: { jwt: [unknown] } }),
    400,
    "unknown_credential_configuration",
  );

  // Revoked meanwhile: the token stays valid but no credential comes out; new offers and codes are refused.
  const pending = await offerFor(api, credential.id);
  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: {} }), 200);
  const late = await proof(holder, { aud, nonce: await freshNonce(http, offer) });
  await expectOauthError(await requestCredential(http, offer, token, request(late)), 400, "invalid_credential_request");
  await expectOauthError(await redeem(http, pending), 400, "invalid_grant");
  await expectError(await api.post(`/v1/credentials/${credential.id}/credential-offer`), 409, "conflict");
});

test("offers: only for issued or expired credentials of the caller's organization", async ({ api, newOrg, client }) => {
  const group = await newGroup(api);
  const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Ada", email: uniqueEmail("oid4vci") } });
  await expectError(await api.post(`/v1/credentials/${draft.id}/credential-offer`), 409, "conflict");
  await expectError(await api.post("/v1/credentials/no-such-credential/credential-offer"), 404, "not_found");
  const stranger = await newOrg();
  const theirs = await client({ token: stranger.token });
  const mine = await issuedCredential(api);
  await expectError(await theirs.post(`/v1/credentials/${mine.id}/credential-offer`), 404, "not_found");
  // Another organization's issuer does not take this organization's code.
  const offer = await offerFor(api, mine.id);
  const http = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  const elsewhere = await http.post(`/organizations/${stranger.slug}/oid4vci/token`, {
    form: { grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": codeOf(offer) },
  });
  await expectOauthError(elsewhere, 400, "invalid_grant");
});

test("the recipient's wallet: a signed-in recipient gets the same offer for their own credentials only", async ({
  api,
  server,
  client,
}) => {
  const email = uniqueEmail("oid4vci-wallet");
  const group = await newGroup(api, { name: "Wallet App Badge" });
  const mine = await issue(api, (await createCredential(api, { groupId: group.id, recipient: { name: "Ada", email } })).id);
  const other = await issuedCredential(api);
  const path = (publicId: string) => `${server.baseURL}/api/wallet/me/credentials/${publicId}/credential-offer`;

  // No session (the recipient mark alone is not enough): 401.
  const guest = await fetch(path(mine.publicId), { method: "POST" });
  expect(guest.status).toBe(401);
  expect(((await guest.json()) as { error: { code: string } }).error.code).toBe("unauthorized");

  const cookie = await signInToWallet(server.baseURL, email.toUpperCase());
  const answer = await fetch(path(mine.publicId), { method: "POST", headers: { Cookie: cookie } });
  expect(answer.status).toBe(201);
  expect(answer.headers.get("cache-control")).toContain("no-store");
  const offer = (await answer.json()) as Offer;
  expect(Object.keys(offer).sort()).toEqual(["credentialOffer", "expiresAt", "link"]);
  const http = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
  await accessToken(http, offer);

  // Someone else's credential, an unknown one: 404; revoked: 409.
  expect((await fetch(path(other.publicId), { method: "POST", headers: { Cookie: cookie } })).status).toBe(404);
  expect((await fetch(path("00000000-0000-4000-8000-000000000000"), { method: "POST", headers: { Cookie: cookie } })).status).toBe(404);
  await expectStatus(await api.post(`/v1/credentials/${mine.id}/revoke`, { data: {} }), 200);
  expect((await fetch(path(mine.publicId), { method: "POST", headers: { Cookie: cookie } })).status).toBe(409);
});
