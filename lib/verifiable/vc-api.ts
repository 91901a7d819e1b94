// The issuing half of the W3C VC API (docs/api.md, VC API): another system hands us a VC 2.0
// credential and an API token, and gets it back signed as the token's organization (eddsa-rdfc-2022,
// the organization's did:web key) with a BitstringStatusListEntry in the organization's own status
// lists; the status endpoint later revokes it, which sets that bit. Each one counts against the free
// plan's monthly quota exactly like an issue through /v1.
//
// Nothing is written for a credential we would not sign: it is checked, then signed once as a trial
// (which is where JSON-LD finds an undefined term or a context we do not bundle), and only then are
// the quota, the record and the status entry written, in one transaction.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { invalidField, invalidFields, notFound } from "../core/errors";
import { safeParseWithDetails } from "../core/validation";
import { consumeIssueQuota } from "../credentials/service";
import { db } from "../db";
import { newId } from "../db/ids";
import { issuerDid, issuerSigner } from "../issuers/service";
import type { Caller } from "../organizations/service";
import { bundledContext, VC_V1_CONTEXT, VC_V2_CONTEXT } from "./contexts";
import { checkCredentialDataModel } from "./data-model";
import { ownDocumentLoader, statusListUrl } from "./service";
import { signDocument } from "./signing";
import { statusEntryFor } from "./status-entries";

type Organization = Caller["organization"];
type JsonObject = Record<string, unknown>;

/** VC 2.0's dateTimeStamp: a date, a time and a time zone (Z or an offset). */
const DATE_TIME_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The request body: the VC API's IssueCredentialRequest. Unknown options are refused, as the VC API asks. */
const IssueRequest = z.strictObject({
  credential: z.record(z.string(), z.unknown()),
  options: z
    .strictObject({
      credentialId: z.string().min(1).max(2000).optional().describe("The credential's `id` when the credential has none."),
    })
    .optional(),
});

export const UpdateStatusRequest = z.strictObject({
  credentialId: z.string().min(1).max(2000),
  credentialStatus: z
    .array(
      z.strictObject({
        type: z.literal("BitstringStatusListEntry"),
        status: z.literal("revoked").describe("Only revocation: it is final, so there is no way back to active."),
      }),
    )
    .min(1)
    .max(1),
});

function refuse(path: string, message: string): never {
  throw invalidField(path, message);
}

function checkContexts(credential: JsonObject): void {
  const contexts = credential["@context"];
  if (!Array.isArray(contexts) || contexts.length === 0) {
    refuse("credential.@context", `must be an array whose first item is ${VC_V2_CONTEXT} (a VC 2.0 credential)`);
  }
  if (contexts[0] === VC_V1_CONTEXT) {
    refuse("credential.@context", `names VC 1.1 (${VC_V1_CONTEXT}); only VC 2.0 credentials (${VC_V2_CONTEXT}) are signed here`);
  }
  if (contexts[0] !== VC_V2_CONTEXT)
    refuse("credential.@context", `must start with ${VC_V2_CONTEXT}: only VC 2.0 credentials are signed here`);
  contexts.forEach((context, i) => {
    // An inline context object is its own definition; a URL must be one we bundle, since signing never
    // fetches a context from the network.
    if (typeof context === "string" && bundledContext(context) === undefined) {
      refuse(`credential.@context[${i}]`, `${context.slice(0, 200)} is not one of the bundled contexts; it cannot be processed here`);
    }
    if (typeof context !== "string" && !isObject(context)) refuse(`credential.@context[${i}]`, "must be a URL or a context object");
  });
}

function checkTypes(credential: JsonObject): void {
  const type = credential.type;
  const types = Array.isArray(type) ? type : [type];
  if (!types.every((t) => typeof t === "string" && t !== "") || !types.includes("VerifiableCredential")) {
    refuse("credential.type", 'must be "VerifiableCredential" or an array of type names that includes it');
  }
}

function checkSubject(credential: JsonObject): void {
  const subject = credential.credentialSubject;
  const subjects = Array.isArray(subject) ? subject : [subject];
  if (subjects.length === 0 || !subjects.every((s) => isObject(s) && Object.keys(s).length > 0)) {
    refuse("credential.credentialSubject", "is required: an object (or an array of objects) with at least one claim");
  }
}

function checkDates(credential: JsonObject): void {
  for (const field of ["validFrom", "validUntil"] as const) {
    const value = credential[field];
    if (value === undefined) continue;
    if (typeof value !== "string" || !DATE_TIME_STAMP.test(value) || Number.isNaN(Date.parse(value))) {
      refuse(`credential.${field}`, "must be a date and time with a time zone, like 2026-01-15T00:00:00Z");
    }
  }
  const { validFrom, validUntil } = credential;
  if (typeof validFrom === "string" && typeof validUntil === "string" && Date.parse(validUntil) < Date.parse(validFrom)) {
    refuse("credential.validUntil", "must not be before validFrom");
  }
}

/** The issuer the credential names, which must be the organization (or none: then it is set). */
function withIssuer(credential: JsonObject, did: string): JsonObject {
  const issuer = credential.issuer;
  if (issuer === undefined) return { ...credential, issuer: did };
  const named = typeof issuer === "string" ? issuer : isObject(issuer) ? issuer.id : undefined;
  if (named !== did) {
    refuse("credential.issuer", `must be this organization's DID, ${did} (as a string or an object with that id), or be left out`);
  }
  return credential;
}

function withId(credential: JsonObject, requestedId: string | undefined): JsonObject {
  // Only a missing id is filled in: one sent as null (or any other non-URL) is refused, not replaced.
  const id = credential.id !== undefined ? credential.id : (requestedId ?? `urn:uuid:${randomUUID()}`);
  if (typeof id !== "string" || !/^[a-z][a-z0-9+.-]*:\S+$/i.test(id)) refuse("credential.id", "must be a URL (a URI such as urn:uuid:...)");
  if (requestedId !== undefined && credential.id !== undefined && credential.id !== requestedId) {
    refuse("options.credentialId", "differs from credential.id; send one of them");
  }
  return { ...credential, id };
}

/** The unsigned credential to sign, or a validation error naming what is wrong with it. */
export function credentialToSign(body: unknown, did: string): { credential: JsonObject; id: string } {
  const parsed = safeParseWithDetails(IssueRequest, body);
  if (!parsed.ok) throw invalidFields(parsed.details);
  const credential = parsed.data.credential;
  checkContexts(credential);
  checkTypes(credential);
  checkSubject(credential);
  checkDates(credential);
  if (credential.proof !== undefined) refuse("credential.proof", "must be left out: send the credential unsigned");
  const complete = withId(withIssuer(credential, did), parsed.data.options?.credentialId);
  // The same data-model rules the verifier applies: what it would refuse is never signed here.
  const model = checkCredentialDataModel(complete);
  if (!model.ok) refuse("credential", `breaks the Verifiable Credentials data model: ${model.reason.slice(0, 500)}`);
  return { credential: complete, id: complete.id as string };
}

/**
 * The credential's status entries: the client's own (VC 2.0 lets a credential carry several, and
 * signing them is what the client asked for) followed by ours, the one our status endpoint sets.
 */
function withStatusEntry(credential: JsonObject, entry: JsonObject): JsonObject {
  const own = credential.credentialStatus;
  if (own === undefined) return { ...credential, credentialStatus: entry };
  const entries: unknown[] = Array.isArray(own) ? own : [own];
  return { ...credential, credentialStatus: [...entries, entry] };
}

function statusEntry(listUrl: string, index: number) {
  return {
    id: `${listUrl}#${index}`,
    type: "BitstringStatusListEntry",
    statusPurpose: "revocation",
    statusListIndex: String(index),
    statusListCredential: listUrl,
  };
}

/** Signs, turning what the JSON-LD and VC libraries refuse about the credential into a 400. */
async function signOrRefuse(credential: JsonObject, signer: Awaited<ReturnType<typeof issuerSigner>>): Promise<JsonObject> {
  try {
    return await signDocument(credential, signer, ownDocumentLoader());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidField("credential", `cannot be signed: ${reason.slice(0, 500)}`);
  }
}

/** POST /vc-api/credentials/issue: the signed credential, recorded and counted. */
export async function issueThroughVcApi(organization: Organization, body: unknown): Promise<JsonObject> {
  const did = issuerDid(organization.slug);
  const { credential, id: credentialId } = credentialToSign(body, did);
  const signer = await issuerSigner(organization);
  // The trial: the same credential with a status entry of the same shape, so that anything the
  // libraries refuse is refused before a single row is written.
  await signOrRefuse(withStatusEntry(credential, statusEntry(statusListUrl(organization.slug, 1), 0)), signer);

  const recordId = newId("vci");
  const entry = await statusEntryFor(
    { id: recordId, organizationId: organization.id },
    {
      owner: "apiIssued",
      withClaim: async (tx) => {
        await consumeIssueQuota(tx, organization, new Date());
        await tx.apiIssuedCredential.create({ data: { id: recordId, organizationId: organization.id, credentialId } });
      },
    },
  );
  const signed = await signOrRefuse(
    withStatusEntry(credential, statusEntry(statusListUrl(organization.slug, entry.listNumber), entry.index)),
    signer,
  );
  await db().apiIssuedCredential.update({ where: { id: recordId }, data: { document: JSON.stringify(signed) } });
  return signed;
}

/**
 * POST /vc-api/credentials/status: revokes every credential of the organization signed with that id.
 * Revocation is final, so revoking again changes nothing and answers the same, with the first time.
 */
export async function updateStatusThroughVcApi(
  organization: Organization,
  body: unknown,
): Promise<{ credentialId: string; credentialStatus: { type: "BitstringStatusListEntry"; status: "revoked" }[]; revokedAt: string }> {
  const parsed = safeParseWithDetails(UpdateStatusRequest, body);
  if (!parsed.ok) throw invalidFields(parsed.details);
  const { credentialId } = parsed.data;
  const where = { organizationId: organization.id, credentialId };
  // Conditional: of two concurrent revocations one sets the time, the other sees it set.
  await db().apiIssuedCredential.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  const revoked = await db().apiIssuedCredential.findFirst({ where, orderBy: { revokedAt: "asc" }, select: { revokedAt: true } });
  if (!revoked?.revokedAt) throw notFound("Credential");
  return {
    credentialId,
    credentialStatus: [{ type: "BitstringStatusListEntry", status: "revoked" }],
    revokedAt: revoked.revokedAt.toISOString(),
  };
}
