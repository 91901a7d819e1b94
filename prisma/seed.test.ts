import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../test/support/db/scratch-database";

await scratchDatabase("seed");

const { db } = await import("../lib/db");
const { CLASSIC_CERTIFICATE } = await import("../lib/designs/seed-documents");
const { createDesign } = await import("../lib/designs/service");
const { createOrganization } = await import("../lib/organizations/service");
const { DesignDocument } = await import("../lib/render/document");
const { DEMO_SLUG, seedDemo } = await import("./seed");

// The Classic Certificate as it was, with its gold "Verified credential" seal.
const WITH_SEAL = DesignDocument.parse({
  ...CLASSIC_CERTIFICATE,
  elements: [
    ...(CLASSIC_CERTIFICATE.elements ?? []),
    { type: "rect", id: "seal", x: 377, y: 420, width: 88, height: 88, fill: "#a8842c", radius: 44 },
    { type: "text", id: "seal-title", x: 387, y: 449, width: 68, height: 14, text: "Verified", font: { family: "Noto Serif", size: 9.5 } },
  ],
});

const currentDocument = async (designId: string) =>
  JSON.parse(
    (await db().design.findUniqueOrThrow({ where: { id: designId }, include: { currentRevision: true } })).currentRevision!.document,
  ) as {
    elements: { id?: string }[];
  };

describe("the demo organization's designs", () => {
  it("lose the old Verified seal on the next start; another organization's design with it is left alone", async () => {
    expect(await seedDemo()).toEqual(expect.any(String));
    const demo = await db().organization.findUniqueOrThrow({ where: { slug: DEMO_SLUG } });
    const oldDemoDesign = await createDesign(demo, { name: "Classic Certificate", type: "certificate", document: WITH_SEAL });
    const other = await createOrganization({ slug: "someone-else", name: "Someone Else" });
    const theirs = await createDesign(other, { name: "Classic Certificate", type: "certificate", document: WITH_SEAL });

    expect(await seedDemo()).toBeNull();

    expect((await currentDocument(oldDemoDesign.id)).elements.map((e) => e.id)).not.toContain("seal-title");
    expect((await currentDocument(theirs.id)).elements.map((e) => e.id)).toContain("seal-title");
    const demoDesigns = await db().design.findMany({ where: { organizationId: demo.id }, include: { currentRevision: true } });
    for (const design of demoDesigns) expect(design.currentRevision!.document).not.toMatch(/"Verified"/);
  });
});
