// OpenID for Verifiable Credential Issuance 1.0 (docs/api.md, OpenID4VCI): an organization's issued
// credential offered to a wallet app with a pre-authorized code, the code exchanged for an access
// token, and the token plus a proof of possession over a fresh nonce exchanged for the credential as
// an Open Badges 3.0 document bound to the wallet's key.
//
// Every secret of the flow (code, token, nonce) is a random value stored only as its hash, and every
// one-time use is a conditional update or delete, so two concurrent uses cannot both succeed. Access
// tokens are opaque (a row, not a signed JWT): there is no token-signing key to keep or rotate, and a
// token dies with its row. The credential is re-read at every step, so a revoked or deleted credential
// makes its outstanding offers and tokens useless at once.
import { randomUUID } from "node:crypto";
import {
  Oauth2ErrorCodes,
  Oauth2ResourceUnauthorizedError,
  Oauth2ServerErrorResponseError,
  decodeJwt,
  preAuthorizedCodeGrantIdentifier,
  type RequestLike,
} from "@openid4vc/oauth2";
import { ApiError, notFound } from "../core/errors";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { holderBoundOpenBadgeCredential } from "../verifiable/service";
import { didJwkFor, type PublicJwk } from "./holder-keys";
import {
  OPEN_BADGE_CONFIGURATION_ID,
  issuerMetadataResult,
  oauth2AuthorizationServer,
  openid4vciIssuer,
  type IssuingOrganization,
} from "./metadata";
import { hashSecret, newSecret } from "./secrets";
import { oid4vciEndpoints } from "./urls";

/** How long a pre-authorized code can be redeemed. */
export const OFFER_TTL_SECONDS = 600;
/** How long an access token is good for: long enough to fetch a nonce and ask for the credential. */
export const ACCESS_TOKEN_TTL_SECONDS = 300;
/** How long a c_nonce can be used in a proof. */
export const NONCE_TTL_SECONDS = 300;

const CREDENTIAL_OFFER_SCHEME = "openid-credential-offer://";

function oauthError(error: string, description: string, status = 400): Oauth2ServerErrorResponseError {
  return new Oauth2ServerErrorResponseError({ error, error_description: description }, { status });
}

const organizationSelect = { id: true, slug: true, name: true, logoMimeType: true, updatedAt: true } as const;

/** The organization whose issuer this is; not_found (404) for an unknown slug. */
export async function issuingOrganization(slug: string): Promise<IssuingOrganization> {
  const org = await db().organization.findUnique({ where: { slug }, select: organizationSelect });
  if (!org) throw notFound("Credential issuer");
  return org;
}

type CredentialState = { status: string; issueDate: string; expiryDate: string | null; revokedAt: Date | null };

/** Whether a wallet may still receive the credential: issued or expired, and not revoked. */
function isOfferable(credential: CredentialState): boolean {
  const status = readStatus(credential);
  return credential.revokedAt === null && (status === "issued" || status === "expired");
}

function findCredentialState(organizationId: string, credentialId: string) {
  return db().credential.findFirst({
    where: { id: credentialId, organizationId },
    select: { id: true, status: true, issueDate: true, expiryDate: true, revokedAt: true },
  });
}

export type CredentialOfferAnswer = { credentialOffer: Record<string, unknown>; link: string; expiresAt: string };

/**
 * A credential offer (by value) with a fresh pre-authorized code for an issued or expired credential of
 * the organization; not_found outside it, conflict for a draft, scheduled or revoked one.
 */
export async function createCredentialOffer(organization: { id: string }, credentialId: string): Promise<CredentialOfferAnswer> {
  const credential = await findCredentialState(organization.id, credentialId);
  if (!credential) throw notFound("Credential");
  if (credential.revokedAt !== null) throw new ApiError("conflict", "This credential was revoked: it cannot be offered to a wallet app.");
  if (!isOfferable(credential)) {
    throw new ApiError("conflict", `This credential is ${readStatus(credential)}: it can be offered to a wallet app once it is issued.`);
  }
  const org = await db().organization.findUniqueOrThrow({ where: { id: organization.id }, select: organizationSelect });
  const code = newSecret();
  const expiresAt = new Date(Date.now() + OFFER_TTL_SECONDS * 1000);
  const { credentialOffer, credentialOfferObject } = await openid4vciIssuer().createCredentialOffer({
    issuerMetadata: issuerMetadataResult(org),
    credentialConfigurationIds: [OPEN_BADGE_CONFIGURATION_ID],
    grants: { [preAuthorizedCodeGrantIdentifier]: { "pre-authorized_code": code } },
    credentialOfferScheme: CREDENTIAL_OFFER_SCHEME,
  });
  await db().oid4vciOffer.create({
    data: { id: randomUUID(), organizationId: org.id, credentialId: credential.id, preAuthorizedCodeHash: hashSecret(code), expiresAt },
  });
  return { credentialOffer: credentialOfferObject, link: credentialOffer, expiresAt: expiresAt.toISOString() };
}

/**
 * The same offer for the signed-in recipient's wallet: the credential behind `publicId` when it is
 * addressed to `email` (lower-cased, any organization). Anyone else's, an unknown one, or one the wallet
 * does not show (draft, scheduled): not_found; a revoked one: conflict.
 */
export async function createRecipientCredentialOffer(email: string, publicId: string): Promise<CredentialOfferAnswer> {
  const credential = await db().credential.findFirst({
    where: { publicId, recipient: { emailNormalized: email } },
    select: { id: true, organizationId: true, status: true, issueDate: true, expiryDate: true },
  });
  if (!credential) throw notFound("Credential");
  const status = readStatus(credential);
  if (status === "draft" || status === "scheduled") throw notFound("Credential");
  return createCredentialOffer({ id: credential.organizationId }, credential.id);
}

/**
 * The token endpoint: a pre-authorized code for an access token. A wrong, expired or used code, or one
 * whose credential is revoked or gone, is `invalid_grant`.
 */
export async function redeemPreAuthorizedCode(slug: string, request: RequestLike, form: Record<string, unknown>) {
  const org = await issuingOrganization(slug);
  const server = oauth2AuthorizationServer();
  const authorizationServerMetadata = issuerMetadataResult(org).authorizationServers[0]!;
  // The library reads DPoP and client attestation headers against the URL the wallet used: ours.
  const publicRequest = { ...request, url: oid4vciEndpoints(org.slug).token };
  const parsed = server.parseAccessTokenRequest({ request: publicRequest, accessTokenRequest: form });
  if (parsed.grant.grantType !== preAuthorizedCodeGrantIdentifier) {
    throw oauthError(Oauth2ErrorCodes.UnsupportedGrantType, "Only the pre-authorized code grant is supported.");
  }
  const code = parsed.grant.preAuthorizedCode;
  const invalidCode = () => oauthError(Oauth2ErrorCodes.InvalidGrant, "The pre-authorized code is unknown, expired or already used.");
  const offer = await db().oid4vciOffer.findUnique({ where: { preAuthorizedCodeHash: hashSecret(code) } });
  if (!offer || offer.organizationId !== org.id || offer.redeemedAt !== null) throw invalidCode();
  await server.verifyPreAuthorizedCodeAccessTokenRequest({
    authorizationServerMetadata,
    grant: parsed.grant,
    accessTokenRequest: parsed.accessTokenRequest,
    request: publicRequest,
    expectedPreAuthorizedCode: code,
    preAuthorizedCodeExpiresAt: offer.expiresAt,
  });
  const credential = await findCredentialState(org.id, offer.credentialId);
  if (!credential || !isOfferable(credential)) {
    throw oauthError(Oauth2ErrorCodes.InvalidGrant, "The credential of this offer was revoked or deleted.");
  }
  const accessToken = newSecret();
  const now = new Date();
  // The code is spent by this conditional update: of two concurrent redemptions exactly one matches.
  const { count } = await db().oid4vciOffer.updateMany({
    where: { id: offer.id, redeemedAt: null, expiresAt: { gt: now } },
    data: {
      redeemedAt: now,
      accessTokenHash: hashSecret(accessToken),
      accessTokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    },
  });
  if (count !== 1) throw invalidCode();
  return { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_SECONDS };
}

/** The nonce endpoint: a fresh c_nonce, usable once within NONCE_TTL_SECONDS. */
export async function issueNonce(slug: string) {
  const org = await issuingOrganization(slug);
  const nonce = newSecret();
  await db().oid4vciNonce.create({
    data: { nonceHash: hashSecret(nonce), organizationId: org.id, expiresAt: new Date(Date.now() + NONCE_TTL_SECONDS * 1000) },
  });
  return openid4vciIssuer().createNonceResponse({ cNonce: nonce, cNonceExpiresIn: NONCE_TTL_SECONDS });
}

function invalidToken(description: string): Oauth2ResourceUnauthorizedError {
  return new Oauth2ResourceUnauthorizedError(description, {
    scheme: "Bearer",
    error: Oauth2ErrorCodes.InvalidToken,
    error_description: description,
  });
}

/** The offer whose access token the request carries, still valid; invalid_token (401) otherwise. */
async function authorizedOffer(org: IssuingOrganization, authorization: string | null) {
  if (!authorization) throw new Oauth2ResourceUnauthorizedError("No access token", { scheme: "Bearer" });
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(authorization.trim());
  if (!match) throw invalidToken("The Authorization header must be a Bearer access token.");
  const offer = await db().oid4vciOffer.findUnique({ where: { accessTokenHash: hashSecret(match[1]!) } });
  if (!offer || offer.organizationId !== org.id || !offer.accessTokenExpiresAt || offer.accessTokenExpiresAt <= new Date()) {
    throw invalidToken("The access token is unknown or expired.");
  }
  return offer;
}

function credentialRequestObject(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw oauthError(Oauth2ErrorCodes.InvalidCredentialRequest, "The body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** The parsed credential request and its one jwt proof, or the OpenID4VCI error saying what is wrong with it. */
function parseRequest(org: IssuingOrganization, body: Record<string, unknown>) {
  const configurationId = body.credential_configuration_id;
  if (configurationId !== undefined && configurationId !== OPEN_BADGE_CONFIGURATION_ID) {
    throw oauthError(
      Oauth2ErrorCodes.UnknownCredentialConfiguration,
      `Unknown credential configuration; this issuer offers ${JSON.stringify(OPEN_BADGE_CONFIGURATION_ID)}.`,
    );
  }
  if (body.credential_identifier !== undefined) {
    throw oauthError(
      Oauth2ErrorCodes.UnknownCredentialIdentifier,
      "This issuer hands out no credential identifiers; send credential_configuration_id.",
    );
  }
  const parsed = openid4vciIssuer().parseCredentialRequest({ issuerMetadata: issuerMetadataResult(org), credentialRequest: body });
  if (parsed.credentialConfigurationId === undefined && parsed.format?.format !== "ldp_vc") {
    throw oauthError(
      Oauth2ErrorCodes.InvalidCredentialRequest,
      `Name the credential: credential_configuration_id ${JSON.stringify(OPEN_BADGE_CONFIGURATION_ID)}.`,
    );
  }
  const jwts = parsed.proofs?.jwt;
  if (!jwts || jwts.length === 0) throw oauthError(Oauth2ErrorCodes.InvalidProof, "A jwt proof of possession is required.");
  if (jwts.length > 1)
    throw oauthError(Oauth2ErrorCodes.InvalidCredentialRequest, "Send one proof: this issuer issues one credential per request.");
  return { parsed, jwt: jwts[0]! };
}

function proofNonce(jwt: string): string {
  let nonce: unknown;
  try {
    nonce = decodeJwt({ jwt }).payload.nonce;
  } catch {
    throw oauthError(Oauth2ErrorCodes.InvalidProof, "The proof is not a JWT.");
  }
  if (typeof nonce !== "string" || nonce === "")
    throw oauthError(Oauth2ErrorCodes.InvalidProof, "The proof carries no nonce: get one from the nonce endpoint.");
  return nonce;
}

function holderDid(signer: { method: string; didUrl?: string; publicJwk: unknown }): string {
  if (signer.method === "did" && signer.didUrl) return signer.didUrl.split("#")[0]!;
  if (signer.method === "jwk") return didJwkFor(signer.publicJwk as PublicJwk);
  throw oauthError(Oauth2ErrorCodes.InvalidProof, "Name the holder key with a did:key or did:jwk kid, or a jwk header.");
}

/**
 * The credential endpoint: with a valid access token and a jwt proof over a fresh nonce, the credential
 * as an Open Badges 3.0 document bound to the proof's key. Errors are OpenID4VCI's: invalid_token,
 * invalid_nonce, invalid_proof, unknown_credential_configuration, invalid_credential_request.
 */
export async function issueToHolder(slug: string, authorization: string | null, requestText: string) {
  const org = await issuingOrganization(slug);
  const offer = await authorizedOffer(org, authorization);
  const body = credentialRequestObject(requestText);
  const { parsed, jwt } = parseRequest(org, body);
  const nonce = proofNonce(jwt);
  const nonceHash = hashSecret(nonce);
  const now = new Date();
  const stored = await db().oid4vciNonce.findUnique({ where: { nonceHash } });
  const unknownNonce = () =>
    oauthError(Oauth2ErrorCodes.InvalidNonce, "The proof's nonce is unknown, expired or already used: get a fresh one.");
  if (!stored || stored.organizationId !== org.id || stored.expiresAt <= now) throw unknownNonce();
  const issuer = openid4vciIssuer();
  const { signer } = await issuer.verifyCredentialRequestJwtProof({
    issuerMetadata: issuerMetadataResult(org),
    jwt,
    expectedNonce: nonce,
    nonceExpiresAt: stored.expiresAt,
  });
  const holder = holderDid(signer);
  // Spent only now, by one conditional delete: of two requests with the same proof exactly one goes on.
  const { count } = await db().oid4vciNonce.deleteMany({ where: { nonceHash, expiresAt: { gt: now } } });
  if (count !== 1) throw unknownNonce();

  const credential = await findCredentialState(org.id, offer.credentialId);
  if (!credential || !isOfferable(credential)) {
    throw oauthError(
      Oauth2ErrorCodes.InvalidCredentialRequest,
      "This credential was revoked or deleted since it was offered: it can no longer be issued.",
    );
  }
  const document = await holderBoundOpenBadgeCredential(org, credential.id, holder);
  return issuer.createCredentialResponse({
    credentialRequest: parsed,
    credentials: [{ credential: document }],
  });
}
