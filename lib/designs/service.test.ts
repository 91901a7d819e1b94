// Duplicating a design on a real SQLite database: the copy has the layout and the images (as rows of
// its own), changing either design leaves the other alone, and another organization's design is not found.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("designs");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign, duplicateDesign, getDesign, updateDesign } = await import("./service");
const { ApiError } = await import("../core/errors");

// A 2x1 opaque PNG (a whole one: uploads are decoded to the end).
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADklEQVQI12P4z8DwH4QBEfcD/VPuaKIAAAAASUVORK5CYII=";

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
    await updateDesign(org, copy.id, {
      document: { ...copy.document, background: { color: "#000000", image: null } },
      assets: { paper: null },
    });
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

describe("updateDesign", () => {
  it("holds at most 20 images per design, however many uploads it takes", async () => {
    const org = await createOrganization({ slug: "upd-assets", plan: "premium" });
    const design = await createDesign(org, {
      name: "D",
      type: "certificate",
      assets: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`a${i}`, PNG])),
    });
    const error = await updateDesign(org, design.id, { assets: { one_more: PNG } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as InstanceType<typeof ApiError>).details).toEqual([
      { path: "assets", message: "a design holds at most 20 images; this would make it 21" },
    ]);
    expect((await getDesign(org, design.id)).assets).toHaveLength(20);
    // Replacing one keeps the count.
    await expect(updateDesign(org, design.id, { assets: { a0: PNG.replace("AAAAAEl", "AAAAAEl") } })).resolves.toMatchObject({
      id: design.id,
    });
  });

  it("refuses with conflict when the design moved on since the caller's expectedUpdatedAt, and writes nothing", async () => {
    const org = await createOrganization({ slug: "upd-conflict", plan: "premium" });
    const opened = await createDesign(org, { name: "D", type: "certificate" });
    await new Promise((r) => setTimeout(r, 5));
    const elsewhere = await updateDesign(org, opened.id, { name: "Renamed elsewhere", document: { ...opened.document, dateStyle: "iso" } });
    const error = await updateDesign(org, opened.id, { document: opened.document }, { expectedUpdatedAt: opened.updatedAt }).catch(
      (e: unknown) => e,
    );
    expect((error as InstanceType<typeof ApiError>).code).toBe("conflict");
    expect(await getDesign(org, opened.id)).toEqual(elsewhere);
    await expect(updateDesign(org, opened.id, { name: "Mine" }, { expectedUpdatedAt: elsewhere.updatedAt })).resolves.toMatchObject({
      name: "Mine",
    });
  });
});

describe("getDesign", () => {
  it("answers each change at once: a rename, a new document (new preview URLs); never another organization", async () => {
    const org = await createOrganization({ slug: "kept-a", plan: "premium" });
    const created = await createDesign(org, { name: "First", type: "badge" });
    const read = await getDesign(org, created.id);
    expect(read).toEqual(created);
    expect(await getDesign(org, created.id)).toEqual(read);

    const renamed = await updateDesign(org, created.id, { name: "Second" });
    expect((await getDesign(org, created.id)).name).toBe("Second");
    expect(renamed.previewUrl).not.toBe(read.previewUrl); // the sample's title is the design's name

    await updateDesign(org, created.id, { document: { ...read.document, background: { color: "#123456", image: null } } });
    const redrawn = await getDesign(org, created.id);
    expect(redrawn.document.background.color).toBe("#123456");
    expect(redrawn.previewUrl).not.toBe(renamed.previewUrl);

    // Another organization never gets this design, kept or not.
    const other = await createOrganization({ slug: "kept-b", plan: "premium" });
    await expect(getDesign(other, created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("reads a revision's document once per process; the shared copy cannot be changed by one caller for the next", async () => {
    const org = await createOrganization({ slug: "kept-c", plan: "premium" });
    const created = await createDesign(org, { name: "Shared", type: "certificate" });
    const first = await getDesign(org, created.id);
    const second = await getDesign(org, created.id);
    expect(second).toEqual(first);
    expect(() => {
      (second.document as { locale: string }).locale = "fr-FR";
    }).toThrow(TypeError);
    expect(() => {
      (second.document.elements as unknown[]).push({});
    }).toThrow(TypeError);
    expect(await getDesign(org, created.id)).toEqual(first);

    // Another organization's name is part of the sample's values: its answer is its own, not the kept one.
    const twin = { ...org, name: "Another name" };
    expect((await getDesign(twin, created.id)).document).toEqual(first.document);
  });
});
