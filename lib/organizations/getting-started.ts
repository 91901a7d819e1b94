// What a new organization has done of its first steps, for the dashboard overview's checklist. Each
// fact is a count of what exists now, so a step is checked off by doing it however it was done (the
// dashboard, the API or a CSV import) and nothing extra is stored.
import { db } from "../db";
import { SEED_DESIGNS } from "../designs/seed-documents";

export type GettingStartedFacts = {
  /** A design of its own: a copy or a new one, or a starter design saved with changes. */
  ownDesign: boolean;
  template: boolean;
  /** Any credential past draft (issued, scheduled, expired; revoked ones count too). */
  issued: boolean;
  /** An API token was ever created (revoking it later does not undo the step). */
  apiToken: boolean;
  /**
   * Its website domain is verified now: without it every credential reads "issuer identity not
   * verified", so set-up is not done (and a domain that loses its verification undoes the step).
   */
  verifiedDomain: boolean;
};

const STARTER_NAMES = new Set(SEED_DESIGNS.map((d) => d.name));

export async function gettingStartedFacts(organizationId: string): Promise<GettingStartedFacts> {
  const where = { organizationId };
  const [designs, templates, issued, apiTokens, verifiedDomains] = await Promise.all([
    // Every organization starts with the starter designs, each with one revision: those do not count.
    db().design.findMany({ where, select: { name: true, _count: { select: { revisions: true } } } }),
    db().group.count({ where }),
    db().credential.count({ where: { organizationId, status: { not: "draft" } } }),
    db().apiToken.count({ where }),
    db().domainClaim.count({ where: { organizationId, verifiedDomain: { not: null } } }),
  ]);
  return {
    ownDesign: designs.some((d) => !STARTER_NAMES.has(d.name) || d._count.revisions > 1),
    template: templates > 0,
    issued: issued > 0,
    apiToken: apiTokens > 0,
    verifiedDomain: verifiedDomains > 0,
  };
}
