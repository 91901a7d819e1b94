// The rule for defining a custom attribute: a tag exists once the organization defines it or once one
// of its designs, email templates or credentials uses it; defining an existing tag again is refused
// and changes nothing, also when several requests define one new tag at once.
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("attributes");

const { db } = await import("../db");
const { ApiError } = await import("../core/errors");
const { DesignDocument } = await import("../render/document");
const { defaultDocument } = await import("../designs/defaults");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const { createCredential } = await import("../credentials/service");
const { defineAttribute, listAttributes } = await import("./service");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;

const customOnes = async (organizationId: string) => (await listAttributes(organizationId)).filter((a) => !a.isDefault);

/** The ApiError a refused definition throws, as the client would read it. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const api = error as InstanceType<typeof ApiError>;
  return { code: api.code, paths: api.details?.map((d) => d.path) };
}

beforeAll(async () => {
  org = await createOrganization({ slug: "attrs", plan: "premium" });
  const base = defaultDocument("certificate");
  const document = DesignDocument.parse({
    ...base,
    elements: [
      ...(base.elements ?? []),
      { type: "text", x: 71, y: 400, width: 700, height: 24, text: "Mentor: [custom.mentor]", font: { family: "Inter", size: 12 } },
    ],
  });
  const design = await createDesign(org, { name: "D", type: "certificate", document });
  groupId = (
    await createGroup(org.id, {
      name: "Course",
      designIds: [design.id],
      emailTemplate: { subject: "Your [custom.course_code] certificate" },
    })
  ).id;
  await createCredential(org, { groupId, recipient: { name: "Ada" }, customAttributes: { "custom.score": "97" } });
});

describe("defining a custom attribute", () => {
  it("refuses a tag a design, an email template or a credential already uses, and keeps its name", async () => {
    for (const tag of ["custom.mentor", "custom.course_code", "custom.score"]) {
      expect(await refusal(defineAttribute(org.id, { tag, name: "Renamed" })), tag).toEqual({ code: "validation_error", paths: ["tag"] });
    }
    expect(await customOnes(org.id)).toEqual([
      { tag: "custom.course_code", name: "course_code", isDefault: false },
      { tag: "custom.mentor", name: "mentor", isDefault: false },
      { tag: "custom.score", name: "score", isDefault: false },
    ]);
  });

  it("defines a new tag once; a second definition is refused and the first name stays", async () => {
    expect(await defineAttribute(org.id, { tag: "custom.grade", name: "Grade" })).toEqual({
      tag: "custom.grade",
      name: "Grade",
      isDefault: false,
    });
    expect(await refusal(defineAttribute(org.id, { tag: "custom.grade", name: "Other" }))).toEqual({
      code: "validation_error",
      paths: ["tag"],
    });
    expect((await customOnes(org.id)).find((a) => a.tag === "custom.grade")!.name).toBe("Grade");
  });

  it("finds uses written before uses were recorded (an organization not yet indexed)", async () => {
    const old = await createOrganization({ slug: "attrs-old", plan: "premium" });
    const design = await createDesign(old, { name: "D", type: "certificate" });
    const group = await createGroup(old.id, { name: "Course", designIds: [design.id] });
    await createCredential(old, { groupId: group.id, recipient: { name: "Ada" }, customAttributes: { "custom.legacy": "x" } });
    await db().customAttribute.deleteMany({ where: { organizationId: old.id } });
    await db().organization.update({ where: { id: old.id }, data: { customAttributesIndexed: false } });

    expect(await refusal(defineAttribute(old.id, { tag: "custom.legacy", name: "Legacy" }))).toEqual({
      code: "validation_error",
      paths: ["tag"],
    });
    expect(await customOnes(old.id)).toEqual([{ tag: "custom.legacy", name: "legacy", isDefault: false }]);
  });

  it("of several definitions of one new tag at once, exactly one succeeds", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => defineAttribute(org.id, { tag: "custom.race", name: `Name ${i}` })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ApiError);
    const winner = (won[0] as PromiseFulfilledResult<{ name: string }>).value.name;
    expect((await customOnes(org.id)).find((a) => a.tag === "custom.race")!.name).toBe(winner);
  });
});
