import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("getting-started");

const { createOrganization, createApiToken, revokeApiToken } = await import("./service");
const { gettingStartedFacts } = await import("./getting-started");
const { addStarterDesigns } = await import("../designs/starter");
const { createDesign, getDesign, updateDesign, listDesigns } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const { createCredential, createIssueSendCredential, issueCredential } = await import("../credentials/service");

const NOTHING = { ownDesign: false, template: false, issued: false, apiToken: false, verifiedDomain: false };

describe("gettingStartedFacts", () => {
  it("a new organization with its starter designs has done nothing; each step counts once done, however it was done", async () => {
    const org = await createOrganization({ slug: "steps", plan: "premium" });
    await addStarterDesigns(org);
    expect(await gettingStartedFacts(org.id)).toEqual(NOTHING);

    const starters = await listDesigns(org, { limit: 10 });
    const group = await createGroup(org.id, { name: "Course", designIds: [starters.data[0]!.id] });
    expect(await gettingStartedFacts(org.id)).toEqual({ ...NOTHING, template: true });

    // A draft is not an issued credential; issuing it is.
    const draft = await createCredential(org, { groupId: group.id, recipient: { name: "Ada" } });
    expect((await gettingStartedFacts(org.id)).issued).toBe(false);
    await issueCredential(org, draft.id);
    expect((await gettingStartedFacts(org.id)).issued).toBe(true);

    // A token counts even after it is revoked: the step was done.
    const token = await createApiToken(org.id, "LMS");
    await revokeApiToken(token.prefix, org.id);
    expect((await gettingStartedFacts(org.id)).apiToken).toBe(true);

    // A starter design saved with a change is one's own.
    expect((await gettingStartedFacts(org.id)).ownDesign).toBe(false);
    const classic = await getDesign(org, starters.data[0]!.id);
    await updateDesign(org, classic.id, {
      document: { ...classic.document, background: { ...classic.document.background, color: "#fef3c7" } },
    });
    expect(await gettingStartedFacts(org.id)).toEqual({
      ownDesign: true,
      template: true,
      issued: true,
      apiToken: true,
      verifiedDomain: false,
    });

    // A claimed domain is not yet a verified one; verifying it is the last step.
    const { db } = await import("../db");
    await db().domainClaim.create({ data: { organizationId: org.id, domain: "steps.example", token: "t" } });
    expect((await gettingStartedFacts(org.id)).verifiedDomain).toBe(false);
    await db().domainClaim.update({ where: { organizationId: org.id }, data: { verifiedDomain: "steps.example", verifiedAt: new Date() } });
    expect((await gettingStartedFacts(org.id)).verifiedDomain).toBe(true);
  });

  it("a design of another name is one's own; another organization's progress is not", async () => {
    const org = await createOrganization({ slug: "steps-two", plan: "premium" });
    const other = await createOrganization({ slug: "steps-other", plan: "premium" });
    await createDesign(other, { name: "Theirs", type: "certificate" });
    await createApiToken(other.id, "theirs");
    expect(await gettingStartedFacts(org.id)).toEqual(NOTHING);
    const design = await createDesign(org, { name: "Our certificate", type: "certificate" });
    const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
    await createIssueSendCredential(org, { groupId: group.id, recipient: { name: "Grace", email: "grace@example.com" } });
    expect(await gettingStartedFacts(org.id)).toEqual({
      ownDesign: true,
      template: true,
      issued: true,
      apiToken: false,
      verifiedDomain: false,
    });
  });
});
