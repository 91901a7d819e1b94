import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("undrawable-text");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const { CLASSIC_CERTIFICATE } = await import("../designs/seed-documents");
const { DesignDocument } = await import("../render/document");
const { unsupportedTextIn } = await import("../render/render");
const { undrawableText, undrawableTextChecker } = await import("./undrawable-text");

type Org = { id: string; slug: string; name: string; plan: string; monthlyIssueQuota: number | null };
let org: Org;
let groupId: string;
let classicId: string;
let noteDesignId: string;

// The classic certificate plus a line drawing a custom attribute, to see a warning point at it.
const withNote = DesignDocument.parse({
  ...CLASSIC_CERTIFICATE,
  elements: [
    ...(CLASSIC_CERTIFICATE.elements ?? []),
    {
      type: "text",
      id: "note",
      x: 121,
      y: 520,
      width: 600,
      height: 20,
      text: "Note: [custom.note]",
      font: { family: "Inter", weight: 400, size: 10, color: "#222222" },
      align: "center",
      verticalAlign: "middle",
    },
  ],
});

beforeAll(async () => {
  org = await createOrganization({ slug: "scripts", name: "Scripts Academy", plan: "premium" });
  classicId = (await createDesign(org, { name: "Classic", type: "certificate", document: DesignDocument.parse(CLASSIC_CERTIFICATE) })).id;
  noteDesignId = (await createDesign(org, { name: "With a note", type: "certificate", document: withNote })).id;
  groupId = (await createGroup(org.id, { name: "Course", designIds: [classicId, noteDesignId], expiryPeriod: { amount: 1, unit: "year" } }))
    .id;
});

async function counts() {
  return {
    credentials: await db().credential.count(),
    recipients: await db().recipient.count(),
    previews: await db().previewVersion.count(),
  };
}

describe("undrawableText", () => {
  it("finds nothing for names in Arabic, Hebrew, Devanagari, Thai, Latin, or an emoji", async () => {
    for (const name of ["محمد علي", "דוד כהן", "अनन्या शर्मा", "สมชาย ใจดี", "Zoë Ångström-Núñez", "王小明"]) {
      expect(await undrawableText(org, groupId, { recipientName: name }), name).toEqual([]);
    }
    expect(
      await undrawableText(org, groupId, { recipientName: "Alex", customAttributes: { "custom.note": "🎓 with honours 👩‍🎓" } }),
    ).toEqual([]);
  });

  it("names each design that cannot draw an Ethiopic name, with the characters' code points, as the renderer does", async () => {
    const before = await counts();
    const found = await undrawableText(org, groupId, { recipientName: "Alex ሰላም" });
    expect(found.map((d) => [d.designId, d.designName])).toEqual([
      [classicId, "Classic"],
      [noteDesignId, "With a note"],
    ]);
    for (const d of found) {
      expect(d.characters).toEqual(["ሰ", "ላ", "ም"]);
      expect(d.attributes).toEqual(["recipient.name"]);
      expect(d.message).toBe("no bundled font can draw these characters: ሰ U+1230, ላ U+120B, ም U+121D (from [recipient.name])");
    }
    // Nothing was written: no credential, recipient or preview version.
    expect(await counts()).toEqual(before);
  });

  it("points at a custom attribute only the design that draws it shows", async () => {
    const found = await undrawableText(org, groupId, { recipientName: "Alex", customAttributes: { "custom.note": "Tifinagh ⴰⵣⵓⵍ" } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ designId: noteDesignId, attributes: ["custom.note"], characters: ["ⴰ", "ⵣ", "ⵓ", "ⵍ"] });
    expect(found[0]!.message).toContain("ⴰ U+2D30");
  });

  it("refuses a template of another organization as the create would", async () => {
    const other = await createOrganization({ slug: "other", name: "Other", plan: "premium" });
    await expect(undrawableText(other, groupId, { recipientName: "Alex" })).rejects.toMatchObject({ code: "validation_error" });
  });

  it("gives the renderer's answer for every text, also once graphemes have been remembered", async () => {
    // The checker remembers graphemes the renderer accepted; a text mixing them with one it has not
    // seen (a lone combining mark, an emoji sequence with no image of its own) must still go to the renderer.
    const check = await undrawableTextChecker(org, groupId);
    const doc = DesignDocument.parse(CLASSIC_CERTIFICATE);
    const names = [
      "Anna Bell",
      "ă q",
      "Anna ሰ",
      "Nadia",
      "q\u0306",
      "👩‍🎓 Ann",
      "🎓\u200d🎓",
      "👩\u200d🦰",
      "Anna \ud83c",
      "Bell Anna",
      "ä",
      "a\u0308",
    ];
    const refused: string[] = [];
    for (const name of names) {
      const renderer = await unsupportedTextIn(doc, {
        "recipient.name": name,
        "organization.name": org.name,
        "group.name": "Course",
        "credential.issueDate": "2026-01-15",
        "credential.url": "https://wallet.example.com/credentials/00000000-0000-4000-8000-000000000000",
      });
      const found = (await check({ recipientName: name, issueDate: "2026-01-15" })).find((d) => d.designId === classicId);
      expect(found?.message ?? null, JSON.stringify(name)).toBe(renderer?.message ?? null);
      if (renderer) refused.push(name);
    }
    // Both answers occur, so the comparison means something.
    expect(refused.length).toBeGreaterThan(1);
    expect(refused.length).toBeLessThan(names.length - 3);
  });
});
