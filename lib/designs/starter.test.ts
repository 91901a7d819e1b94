// Every new organization starts with every starter design, whichever way it is made: sign-up (the
// form's domain function), the CLI's `org create` (addStarterDesigns) and the demo seed.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("starter-designs");

const { db } = await import("../db");
const { signUp } = await import("../accounts/service");
const { createOrganization } = await import("../organizations/service");
const { addStarterDesigns } = await import("./starter");
const { listDesigns } = await import("./service");
const { SEED_DESIGNS } = await import("./seed-documents");
const { seedDemo, DEMO_SLUG } = await import("../../prisma/seed");

async function designNames(organizationId: string): Promise<string[]> {
  const page = await listDesigns({ id: organizationId, name: "" }, { limit: 100 });
  return page.data.map((d) => d.name).sort();
}

const starterNames = SEED_DESIGNS.map((s) => s.name).sort();

describe("starter designs", () => {
  it("a sign-up's organization has every one", async () => {
    const created = await signUp(
      {
        name: "Ada",
        email: `ada.${Math.random().toString(36).slice(2)}@example.com`,
        password: "correct horse battery",
        organizationName: "Ada Academy",
      },
      { clientAddress: "198.51.100.40" },
    );
    expect(await designNames(created.organizationId)).toEqual(starterNames);
  });

  it("an organization made by the CLI has every one", async () => {
    const org = await createOrganization({ slug: "starter-cli", plan: "premium" });
    await addStarterDesigns(org);
    expect(await designNames(org.id)).toEqual(starterNames);
  });

  it("the demo organization has every one; its sample template shows the first three", async () => {
    await seedDemo();
    const demo = await db().organization.findUniqueOrThrow({ where: { slug: DEMO_SLUG } });
    expect(await designNames(demo.id)).toEqual(starterNames);
    const group = await db().group.findFirstOrThrow({
      where: { organizationId: demo.id },
      include: { designs: { include: { design: true } } },
    });
    expect(group.designs.map((d) => d.design.name).sort()).toEqual(["Achievement Badge", "Classic Certificate", "Modern Certificate"]);
  });
});
