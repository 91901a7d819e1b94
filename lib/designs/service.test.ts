// Duplicating a design on a real SQLite database: the copy has the layout and the images (as rows of
// its own), changing either design leaves the other alone, and another organization's design is not found.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../db/scratch-database";

await scratchDatabase("designs");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign, duplicateDesign, getDesign, updateDesign } = await import("./service");
const { ApiError } = await import("../api/errors");

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwnwEIGAAb/QL+kLIfNQAAAABJRU5ErkJggg==";


describe("duplicateDesign", () => {
  it("copies the layout and the images into a design of its own", async () => {
    const org = await createOrganization({ slug: "dup-a", plan: "premium" });
    const source = await createDesign(org, {
      name: "Source",
      type: "badge",
      document: {
        version: 1,
        canvas: { size: "square", orientation: "landscape" },
        locale: "en-US",
        dateStyle: "long",
        background: { color: "#ffffff", image: { asset: "paper", fit: "cover", opacity: 1 } },
        elements: [{ type: "image", x: 10, y: 10, width: 40, height: 20, asset: "seal", fit: "contain", opacity: 1 }],
      },
      assets: { seal: PNG, paper: PNG },
    });
    const copy = await duplicateDesign(org, source.id, "Copy");
    expect(copy).toMatchObject({ name: "Copy", type: "badge", document: source.document, assets: source.assets });
    expect(copy.id).not.toBe(source.id);
    expect(copy.previewUrl).not.toBe(source.previewUrl);
    expect(await db().designAsset.count({ where: { designId: copy.id } })).toBe(2);

    // Removing an image from the copy leaves the source's.
    await updateDesign(org, copy.id, { document: { ...copy.document, background: { color: "#000000", image: null } }, assets: { paper: null } });
    expect((await getDesign(org, source.id)).assets.map((a) => a.name).sort()).toEqual(["paper", "seal"]);
    expect((await getDesign(org, copy.id)).assets.map((a) => a.name)).toEqual(["seal"]);
  });

  it("does not find another organization's design, and writes nothing", async () => {
    const owner = await createOrganization({ slug: "dup-owner", plan: "premium" });
    const other = await createOrganization({ slug: "dup-other", plan: "premium" });
    const source = await createDesign(owner, { name: "Private", type: "certificate" });
    const before = await db().design.count();
    const error = await duplicateDesign(other, source.id, "Stolen").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as InstanceType<typeof ApiError>).code).toBe("not_found");
    expect(await db().design.count()).toBe(before);
  });
});
