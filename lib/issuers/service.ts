// Issuer identity: each organization's Ed25519 signing keys and its did:web DID document. A key is
// made on first need; rotation retires the current key but keeps it listed, so every credential it
// signed keeps verifying. Secret keys exist in clear only inside this module, never in a log or a
// response: what leaves is a public key, a DID document or a signer object.
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { notFound } from "../core/errors";
import { config } from "../config";
import { appSecret } from "../app-secret";
import { db } from "../db";
import { newId } from "../db/ids";
import { didDocument, didWebFor, verificationMethodId, type DidDocument } from "./did-web";
import { decryptSecretKey, encryptSecretKey } from "./key-encryption";

type IssuerKeyRow = {
  id: string;
  organizationId: string;
  publicKeyMultibase: string;
  encryptedSecretKey: string;
  createdAt: Date;
  retiredAt: Date | null;
};

/** A key as the rest of the app may see it: public parts only. */
export type IssuerKey = { id: string; verificationMethod: string; publicKeyMultibase: string; createdAt: Date; retiredAt: Date | null };

/** What a Data Integrity proof suite (eddsa-rdfc-2022) signs with: the shape @digitalbazaar/data-integrity expects. */
export type IssuerSigner = { id: string; algorithm: "Ed25519"; sign: (input: { data: Uint8Array }) => Promise<Uint8Array> };

type Organization = { id: string; slug: string };

/** The organization's did:web DID, resolved at `{PUBLIC_URL}/organizations/{slug}/did.json`. */
export function issuerDid(slug: string): string {
  return didWebFor(config().publicUrl, ["organizations", slug]);
}

function publicView(org: Organization, row: IssuerKeyRow): IssuerKey {
  return {
    id: row.id,
    verificationMethod: verificationMethodId(issuerDid(org.slug), row.id),
    publicKeyMultibase: row.publicKeyMultibase,
    createdAt: row.createdAt,
    retiredAt: row.retiredAt,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

/** A fresh key pair, its secret already encrypted for the row it will be stored in. */
async function newKeyRow(organizationId: string) {
  const id = newId("ikey");
  const pair = await Ed25519Multikey.generate();
  const binding = { keyId: id, organizationId, publicKeyMultibase: pair.publicKeyMultibase };
  return {
    id,
    organizationId,
    currentFor: organizationId,
    publicKeyMultibase: pair.publicKeyMultibase,
    encryptedSecretKey: encryptSecretKey(pair.secretKeyMultibase, binding, appSecret()),
  };
}

async function findCurrentRow(organizationId: string): Promise<IssuerKeyRow | null> {
  return db().issuerKey.findUnique({ where: { currentFor: organizationId } });
}

/** The organization's current key, made now if it has none. Two first uses at once end with one key. */
async function currentRow(organizationId: string): Promise<IssuerKeyRow> {
  const existing = await findCurrentRow(organizationId);
  if (existing) return existing;
  try {
    return await db().issuerKey.create({ data: await newKeyRow(organizationId) });
  } catch (error) {
    // Another request made the first key between our read and our insert: theirs is the key.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findCurrentRow(organizationId);
    if (!winner) throw error;
    return winner;
  }
}

export async function currentIssuerKey(org: Organization): Promise<IssuerKey> {
  return publicView(org, await currentRow(org.id));
}

const ROTATION_ATTEMPTS = 5;

/** Makes a new key current; the old one is retired (and stays listed). Returns the new key. */
export async function rotateIssuerKey(org: Organization): Promise<IssuerKey> {
  for (let attempt = 1; ; attempt++) {
    const fresh = await newKeyRow(org.id);
    try {
      const row = await db().$transaction(async (tx) => {
        await tx.issuerKey.updateMany({ where: { currentFor: org.id }, data: { currentFor: null, retiredAt: new Date() } });
        return tx.issuerKey.create({ data: fresh });
      });
      return publicView(org, row);
    } catch (error) {
      // A concurrent rotation (or first use) committed a current key after our retire step read none:
      // go again, retiring that one too, rather than fail an operator's command.
      if (!isUniqueViolation(error) || attempt >= ROTATION_ATTEMPTS) throw error;
    }
  }
}

/** Every key the organization ever had, oldest first. */
async function allRows(organizationId: string): Promise<IssuerKeyRow[]> {
  return db().issuerKey.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The DID document for `/organizations/{slug}/did.json`, making the first key if there is none yet. */
export async function organizationDidDocument(slug: string): Promise<DidDocument> {
  // One query for the organization and its keys: this runs for every DID document served and every
  // credential of this instance verified.
  const org = await db().organization.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      issuerKeys: {
        select: { id: true, publicKeyMultibase: true, currentFor: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
    },
  });
  if (!org) throw notFound("Organization");
  if (org.issuerKeys.some((key) => key.currentFor === org.id)) return didDocument(issuerDid(org.slug), org.issuerKeys);
  await currentRow(org.id);
  return didDocument(issuerDid(org.slug), await allRows(org.id));
}

/** A signer with the organization's current key, for Data Integrity proofs. */
export async function issuerSigner(org: Organization): Promise<IssuerSigner> {
  const row = await currentRow(org.id);
  const secretKeyMultibase = decryptSecretKey(
    row.encryptedSecretKey,
    { keyId: row.id, organizationId: row.organizationId, publicKeyMultibase: row.publicKeyMultibase },
    appSecret(),
  );
  const id = verificationMethodId(issuerDid(org.slug), row.id);
  const pair = await Ed25519Multikey.from({
    id,
    controller: issuerDid(org.slug),
    publicKeyMultibase: row.publicKeyMultibase,
    secretKeyMultibase,
  });
  return pair.signer() as IssuerSigner;
}
