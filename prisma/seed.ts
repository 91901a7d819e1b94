// First start on an empty database: organization `demo` (premium) with every starter design, one
// group using the first three (a certificate in two styles and a badge: each credential issued from
// it renders every design of its group, so not all of them), and an API token, printed once.
import { db } from "@/lib/db";
import { CLASSIC_CERTIFICATE, SEED_DESIGNS } from "@/lib/designs/seed-documents";
import { createDesign, updateDesign } from "@/lib/designs/service";
import { createGroup } from "@/lib/groups/service";
import { createApiToken, createOrganization, OrganizationError } from "@/lib/organizations/service";
import { DesignDocument } from "@/lib/render/document";

export const DEMO_SLUG = "demo";
/** The demo group shows the first starter designs: Classic Certificate, Modern Certificate, Achievement Badge. */
const DEMO_GROUP_DESIGNS = 3;

/** Seeds the demo organization unless it exists; returns its new token, or null when it already existed. */
export async function seedDemo(): Promise<string | null> {
  const existing = await db().organization.findUnique({ where: { slug: DEMO_SLUG }, select: { id: true, name: true } });
  if (existing) {
    await retireDemoSeal(existing);
    return null;
  }
  let org;
  try {
    org = await createOrganization({ slug: DEMO_SLUG, name: "Demo Academy", plan: "premium" });
  } catch (error) {
    // Another process seeded it meanwhile: seen before the insert (OrganizationError), or by the unique
    // slug when several processes start on one fresh database at once (P2002).
    if (error instanceof OrganizationError || (error as { code?: string } | null)?.code === "P2002") return null;
    throw error;
  }
  const designIds: string[] = [];
  for (const [i, seed] of SEED_DESIGNS.entries()) {
    const design = await createDesign(org, { name: seed.name, type: seed.type, document: DesignDocument.parse(seed.document) });
    if (i < DEMO_GROUP_DESIGNS) designIds.push(design.id);
  }
  await createGroup(org.id, {
    name: "Data Analysis Fundamentals",
    designIds,
    learningEventUrl: "https://example.com/courses/data-analysis-fundamentals",
  });
  const token = await createApiToken(org.id, "demo");
  return token.token;
}

/**
 * The Classic Certificate once printed a gold "Verified credential" seal, which a picture cannot know
 * (it showed on impostors' and revoked credentials alike). New organizations get the design without
 * it; other organizations' designs are theirs and stay as they are, but the demo organization is ours
 * to show the product with: a demo design still carrying that seal gets the current Classic layout.
 */
async function retireDemoSeal(org: { id: string; name: string }): Promise<void> {
  const designs = await db().design.findMany({
    where: { organizationId: org.id },
    select: { id: true, currentRevision: { select: { document: true } } },
  });
  for (const design of designs) {
    if (!design.currentRevision || !printsVerifiedSeal(design.currentRevision.document)) continue;
    await updateDesign(org, design.id, { document: DesignDocument.parse(CLASSIC_CERTIFICATE) });
  }
}

function printsVerifiedSeal(documentJson: string): boolean {
  const document = JSON.parse(documentJson) as { elements?: { id?: string; text?: string }[] };
  return (document.elements ?? []).some((e) => e.id === "seal-title" && /verified/i.test(e.text ?? ""));
}
