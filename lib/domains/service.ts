// Verified domains: an organization claims its website domain and proves it by publishing our token
// in a file on its website or in a DNS TXT record (proof.ts and dns-proof.ts say where and how). The rules here are the only ones: a domain is verified for at most
// one organization (a unique index, so two checks finishing at once cannot both win), changing the
// claim resets it, a verified claim is re-checked daily in the background and loses its verification
// when the website stops carrying the token.
import { ApiError, invalidField } from "../core/errors";
import { config } from "../config";
import { db } from "../db";
import { log } from "../log";
import { issuerDid } from "../issuers/service";
import { checkDomainOwnership, proofUrl, type CheckOutcome, type CheckResult } from "./check";
import { dnsRecordName } from "./dns-proof";
import { DomainNameError, parseDomainName } from "./domain-name";
import { newVerificationToken, proofLine } from "./proof";

export { PROOF_PATH, PROOF_PREFIX } from "./proof";
export type { CheckOutcome } from "./check";

/** How often a verified claim is checked again. */
export const RECHECK_INTERVAL_MS = 24 * 60 * 60_000;
/** After a re-check that got no answer at all (the site down, DNS failing), the next try comes sooner. */
const UNANSWERED_RETRY_MS = 6 * 60 * 60_000;
/**
 * Re-checks in a row without an answer that a verified claim survives: a short outage of the website
 * should not unmark its owner, a site gone for good should. A site that answers without the token
 * loses the verification at once.
 */
const UNANSWERED_CHECKS_TOLERATED = 2;
/** A background re-check owns its claim this long; one that died leaves it to the next pass. */
const RECHECK_LEASE_MS = 2 * 60_000;

type ClaimRow = {
  organizationId: string;
  domain: string;
  token: string;
  verifiedDomain: string | null;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  lastOutcome: string | null;
  lastMessage: string | null;
  droppedReason: string | null;
  unansweredChecks: number;
};

/** What the settings page shows about the organization's claim. */
export type DomainClaimView = {
  domain: string;
  token: string;
  /** The line to publish, exactly. */
  proofLine: string;
  /** Where to publish it. */
  proofUrl: string;
  /** Or: the DNS TXT record that may carry it instead. */
  dnsRecordName: string;
  verified: boolean;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  lastOutcome: CheckOutcome | null;
  lastMessage: string | null;
  /** Why an earlier verification was dropped, until the domain is verified again. */
  droppedReason: string | null;
};

function view(row: ClaimRow): DomainClaimView {
  return {
    domain: row.domain,
    token: row.token,
    proofLine: proofLine(row.token),
    proofUrl: proofUrl(row.domain),
    dnsRecordName: dnsRecordName(row.domain),
    verified: row.verifiedDomain !== null,
    verifiedAt: row.verifiedAt,
    lastCheckedAt: row.lastCheckedAt,
    lastOutcome: row.lastOutcome as CheckOutcome | null,
    lastMessage: row.lastMessage,
    droppedReason: row.droppedReason,
  };
}

function domainRules() {
  return { allowLoopback: config().allowPrivateNetworks };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (e.code === "P2002" || e.code === "23505") return true;
  if (typeof e.message === "string" && /UNIQUE constraint failed|duplicate key value/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isUniqueViolation(e.cause);
}

function takenError(domain: string): ApiError {
  return new ApiError("conflict", `${domain} is already verified by another organization. If it is yours, contact support.`);
}

export async function domainClaimFor(organizationId: string): Promise<DomainClaimView | null> {
  const row = await db().domainClaim.findUnique({ where: { organizationId } });
  return row ? view(row) : null;
}

/**
 * Claims `rawDomain` for the organization with a fresh token, replacing (and un-verifying) any earlier
 * claim. Claiming the domain it already claims changes nothing. A domain that another organization
 * has verified cannot be claimed; one merely claimed elsewhere can (whoever proves it first holds it).
 */
export async function claimDomain(organizationId: string, rawDomain: string): Promise<DomainClaimView> {
  let domain: string;
  try {
    domain = parseDomainName(rawDomain, domainRules());
  } catch (error) {
    if (error instanceof DomainNameError) throw invalidField("domain", error.message);
    throw error;
  }
  const existing = await db().domainClaim.findUnique({ where: { organizationId } });
  if (existing?.domain === domain) return view(existing);
  const holder = await db().domainClaim.findFirst({
    where: { verifiedDomain: domain, NOT: { organizationId } },
    select: { organizationId: true },
  });
  if (holder) throw takenError(domain);
  const fresh = {
    domain,
    token: newVerificationToken(),
    verifiedDomain: null,
    verifiedAt: null,
    lastCheckedAt: null,
    lastOutcome: null,
    lastMessage: null,
    droppedReason: null,
    unansweredChecks: 0,
    nextCheckAt: null,
    leaseUntil: null,
  };
  const row = await db().domainClaim.upsert({ where: { organizationId }, create: { organizationId, ...fresh }, update: fresh });
  return view(row);
}

/** Withdraws the claim (and its verification). Returns whether there was one. */
export async function removeDomainClaim(organizationId: string): Promise<boolean> {
  const { count } = await db().domainClaim.deleteMany({ where: { organizationId } });
  return count === 1;
}

/** The state a check's result leads to, from the claim as it was when the check started. */
function nextState(claim: ClaimRow, result: CheckResult, now: Date) {
  const checked = { lastCheckedAt: now, lastOutcome: result.outcome, lastMessage: result.message, leaseUntil: null };
  if (result.outcome === "verified") {
    return {
      ...checked,
      verifiedDomain: claim.domain,
      verifiedAt: claim.verifiedDomain !== null ? claim.verifiedAt : now,
      droppedReason: null,
      unansweredChecks: 0,
      nextCheckAt: new Date(now.getTime() + RECHECK_INTERVAL_MS),
    };
  }
  if (claim.verifiedDomain === null) return checked;
  if (result.outcome === "unreachable" && claim.unansweredChecks < UNANSWERED_CHECKS_TOLERATED) {
    return { ...checked, unansweredChecks: claim.unansweredChecks + 1, nextCheckAt: new Date(now.getTime() + UNANSWERED_RETRY_MS) };
  }
  return {
    ...checked,
    verifiedDomain: null,
    verifiedAt: null,
    unansweredChecks: 0,
    nextCheckAt: null,
    droppedReason: `Verification removed on ${now.toISOString().slice(0, 10)}: ${result.message}`,
  };
}

/**
 * Runs one check of the claim as read and records its outcome, only if the claim is still the one
 * checked (same domain and token): a claim changed meanwhile is left alone.
 */
async function checkAndRecord(claim: ClaimRow): Promise<DomainClaimView | null> {
  let result: CheckResult;
  try {
    parseDomainName(claim.domain, domainRules());
    result = await checkDomainOwnership(claim.domain, claim.token);
  } catch (error) {
    // A claim stored under the test switch, checked by a server without it.
    if (!(error instanceof DomainNameError)) throw error;
    result = { outcome: "refused_address", message: `Not checked: the domain ${error.message}.`, url: proofUrl(claim.domain) };
  }
  const now = new Date();
  const same = { organizationId: claim.organizationId, domain: claim.domain, token: claim.token };
  try {
    const next = nextState(claim, result, now);
    const { count } = await db().domainClaim.updateMany({ where: same, data: next });
    const was = claim.verifiedDomain !== null;
    const is = "verifiedDomain" in next ? next.verifiedDomain !== null : was;
    if (count === 1 && was !== is) {
      const fields = { organizationId: claim.organizationId, domain: claim.domain, outcome: result.outcome };
      if (is) log.info("domain_verified", fields);
      else log.warn("domain_verification_dropped", fields);
    }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The token is there, but the domain is verified for another organization (which proved it first).
    const taken: CheckResult = { outcome: "taken", message: takenError(claim.domain).message, url: result.url };
    await db().domainClaim.updateMany({ where: same, data: nextState({ ...claim, verifiedDomain: null }, taken, now) });
  }
  return domainClaimFor(claim.organizationId);
}

/** "Check now" from settings: checks the organization's claim and returns its new state. */
export async function checkDomainNow(organizationId: string): Promise<DomainClaimView> {
  const claim = await db().domainClaim.findUnique({ where: { organizationId } });
  if (!claim) throw new ApiError("not_found", "No domain is claimed yet: enter your website's domain first.");
  const after = await checkAndRecord(claim);
  if (!after) throw new ApiError("conflict", "The domain claim was removed while it was being checked.");
  return after;
}

/**
 * The background re-check: verified claims whose time has come, each claimed with a lease (a
 * conditional update) so that several server processes never check one claim at once, and a
 * process killed mid-check leaves it to the next pass. Returns how many were checked.
 */
export async function recheckDueDomainClaims(limit = 20): Promise<number> {
  const now = new Date();
  const due = await db().domainClaim.findMany({
    where: { verifiedDomain: { not: null }, nextCheckAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    orderBy: { nextCheckAt: "asc" },
    take: limit,
  });
  let checked = 0;
  for (const claim of due) {
    const at = new Date();
    const { count } = await db().domainClaim.updateMany({
      where: {
        organizationId: claim.organizationId,
        domain: claim.domain,
        token: claim.token,
        nextCheckAt: claim.nextCheckAt,
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: at } }],
      },
      data: { leaseUntil: new Date(at.getTime() + RECHECK_LEASE_MS) },
    });
    if (count !== 1) continue; // another process took it, or the claim changed
    await checkAndRecord(claim);
    checked++;
  }
  return checked;
}

/** Who issued a credential, as the wallet, the verify page and the public profile state it. */
export type IssuerIdentity = {
  organizationId: string;
  name: string;
  slug: string;
  /** The organization's did:web DID (its document at /organizations/<slug>/did.json). */
  did: string;
  /** The website domain it proved it controls, or null: then its identity is not verified. */
  verifiedDomain: string | null;
  verifiedAt: Date | null;
};

type OrgWithClaim = {
  id: string;
  name: string;
  slug: string;
  domainClaim: { verifiedDomain: string | null; verifiedAt: Date | null } | null;
};

const identitySelect = { id: true, name: true, slug: true, domainClaim: { select: { verifiedDomain: true, verifiedAt: true } } } as const;

function identityOf(org: OrgWithClaim): IssuerIdentity {
  const verifiedDomain = org.domainClaim?.verifiedDomain ?? null;
  return {
    organizationId: org.id,
    name: org.name,
    slug: org.slug,
    did: issuerDid(org.slug),
    verifiedDomain,
    verifiedAt: verifiedDomain ? (org.domainClaim?.verifiedAt ?? null) : null,
  };
}

export async function issuerIdentity(organizationId: string): Promise<IssuerIdentity | null> {
  const org = await db().organization.findUnique({ where: { id: organizationId }, select: identitySelect });
  return org ? identityOf(org) : null;
}

export async function issuerIdentityBySlug(slug: string): Promise<IssuerIdentity | null> {
  const org = await db().organization.findUnique({ where: { slug }, select: identitySelect });
  return org ? identityOf(org) : null;
}

/** The public profile at /organizations/<slug>: nothing that is not already public elsewhere. */
export type IssuerProfile = IssuerIdentity & { hasLogo: boolean; joinedAt: Date; credentialsIssued: number };

export async function issuerProfile(slug: string): Promise<IssuerProfile | null> {
  const org = await db().organization.findUnique({
    where: { slug },
    select: { ...identitySelect, logoMimeType: true, createdAt: true },
  });
  if (!org) return null;
  // Drafts and scheduled credentials are not issued yet; expired and revoked ones were issued.
  const credentialsIssued = await db().credential.count({ where: { organizationId: org.id, status: "issued" } });
  return { ...identityOf(org), hasLogo: org.logoMimeType !== null, joinedAt: org.createdAt, credentialsIssued };
}
