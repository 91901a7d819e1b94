// The editor's live preview on a real SQLite database: a draft renders with the design's saved images
// and sample values, is refused with the API's messages and paths when the API would refuse it,
// writes nothing, and never reaches another organization's design.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("draft-preview");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign, getDesign } = await import("./service");
const { renderDraftDesign } = await import("./draft-preview");
const { ApiError } = await import("../core/errors");
const { defaultDocument } = await import("./defaults");
const { DesignDocument } = await import("../render/document");

// A 2x1 opaque PNG (a whole one: uploads are decoded to the end).
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADklEQVQI12P4z8DwH4QBEfcD/VPuaKIAAAAASUVORK5CYII=";

async function refusal(work: Promise<unknown>): Promise<{ code: string; details: { path: string; message: string }[] }> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const api = error as InstanceType<typeof ApiError>;
  return { code: api.code, details: api.details ?? [] };
}

describe("renderDraftDesign", () => {
  it("renders an unsaved document with the design's images, and stores nothing", async () => {
    const org = await createOrganization({ slug: "drafts-a", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate", assets: { seal: PNG } });
    const revisions = await db().designRevision.count();
    const versions = await db().previewVersion.count();
    const doc = DesignDocument.parse(defaultDocument("certificate"));
    doc.elements.push({ type: "image", x: 10, y: 10, width: 40, height: 20, asset: "seal", fit: "contain", opacity: 1 });
    const preview = await renderDraftDesign(org, design.id, doc, { widthPx: 400 });
    expect(Buffer.from(preview.png.subarray(1, 4)).toString("ascii")).toBe("PNG");
    expect(Buffer.from(preview.png).readUInt32BE(16)).toBe(400);
    expect(preview.warnings).toEqual([]);
    expect(await db().designRevision.count()).toBe(revisions);
    expect(await db().previewVersion.count()).toBe(versions);
    expect((await getDesign(org, design.id)).updatedAt).toBe(design.updatedAt);
  });

  it("reports what the API would refuse, at the document's paths", async () => {
    const org = await createOrganization({ slug: "drafts-b", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const doc = DesignDocument.parse(defaultDocument("certificate")) as unknown as { elements: Record<string, unknown>[] };
    doc.elements[1] = { ...doc.elements[1], text: "[recipient.nmae]" };
    doc.elements.push({ type: "image", x: 10, y: 10, width: 40, height: 20, asset: "missing" });
    const schema = await refusal(renderDraftDesign(org, design.id, doc));
    expect(schema).toEqual({
      code: "validation_error",
      details: [{ path: "elements[1].text", message: "unknown attribute [recipient.nmae]" }],
    });

    doc.elements[1] = { ...doc.elements[1], text: "Fine" };
    const asset = await refusal(renderDraftDesign(org, design.id, doc));
    expect(asset.details).toEqual([{ path: "elements[10].asset", message: 'no asset named "missing"' }]);

    const square = DesignDocument.parse({ ...defaultDocument("certificate"), canvas: { size: "square" }, elements: [] });
    expect((await refusal(renderDraftDesign(org, design.id, square))).details).toEqual([
      { path: "canvas.size", message: "a certificate's canvas must be A4 or Letter" },
    ]);

    // Right-to-left text is drawn (shaped) like any other: no refusal, no warning.
    const rtl = DesignDocument.parse(defaultDocument("certificate"));
    const title = rtl.elements[1]!;
    if (title.type !== "text") throw new Error("the default layout's second element is its title");
    title.text = "תעודה";
    const drawn = await renderDraftDesign(org, design.id, rtl, { recipientName: "שלום עולם", widthPx: 300 });
    expect(drawn.warnings).toEqual([]);
  });

  it("draws characters no font has as boxes and says so, instead of refusing", async () => {
    const org = await createOrganization({ slug: "drafts-c", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const preview = await renderDraftDesign(org, design.id, DesignDocument.parse(defaultDocument("certificate")), {
      recipientName: "Ada ሰላም",
      widthPx: 300,
    });
    expect(preview.warnings.some((w) => w.startsWith("element 3: no font for"))).toBe(true);
  });

  it("renders at most 2 drafts of one organization at once; others are asked to wait, not queued", async () => {
    const org = await createOrganization({ slug: "drafts-busy", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const doc = DesignDocument.parse(defaultDocument("certificate"));
    const results = await Promise.allSettled([0, 1, 2].map((i) => renderDraftDesign(org, design.id, doc, { recipientName: `Ada ${i}` })));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    const error = (results[2] as PromiseRejectedResult).reason as InstanceType<typeof ApiError>;
    expect(error.code).toBe("rate_limited");
    expect(error.headers?.["Retry-After"]).toBe("1");
    // Once those are done, the next one renders.
    await expect(renderDraftDesign(org, design.id, doc, { widthPx: 200 })).resolves.toMatchObject({ warnings: [] });
  });

  it("does not find another organization's design", async () => {
    const owner = await createOrganization({ slug: "drafts-owner", plan: "premium" });
    const other = await createOrganization({ slug: "drafts-other", plan: "premium" });
    const design = await createDesign(owner, { name: "Private", type: "certificate" });
    const refused = await refusal(renderDraftDesign(other, design.id, DesignDocument.parse(defaultDocument("certificate"))));
    expect(refused.code).toBe("not_found");
  });
});
