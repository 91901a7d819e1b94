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
const { createGroup } = await import("../groups/service");
const { LONG_GROUP_NAMES, LONG_RECIPIENT_NAMES } = await import("./long-samples");

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

  it("previews with the longest sample values and names the texts that overflow with any long name", async () => {
    const org = await createOrganization({ slug: "drafts-long", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const doc = DesignDocument.parse(defaultDocument("certificate"));
    const nameIndex = doc.elements.findIndex((el) => el.type === "text" && el.text === "[recipient.name]");
    const fits = await renderDraftDesign(org, design.id, doc, { widthPx: 200 });
    expect(fits.sample).toEqual({ recipientName: LONG_RECIPIENT_NAMES[0], groupName: LONG_GROUP_NAMES.certificate });
    expect(fits.overflows).toEqual([]);

    // A name box that holds short names only, and cannot shrink.
    const name = doc.elements[nameIndex]!;
    if (name.type !== "text") throw new Error("the name is a text");
    doc.elements[nameIndex] = { ...name, width: 260, shrinkToFit: false };
    const overflowing = await renderDraftDesign(org, design.id, doc, { widthPx: 200 });
    expect(overflowing.overflows[0]).toEqual({ index: nameIndex, recipientName: LONG_RECIPIENT_NAMES[0] });
    expect(overflowing.overflows.map((o) => o.index)).toEqual([nameIndex]);
    // Said once, as an overflow, not again among the other warnings.
    expect(overflowing.warnings).toEqual([]);

    // Wide enough for the Latin names in the picture, but not for every script: the first name it overflows with is named.
    // (At 20 pt in Inter the first name is 478 pt wide, the Tamil one 511 pt.)
    const font = { ...name.font, family: "Inter" as const, weight: 400 as const, size: 20, letterSpacing: 0 };
    doc.elements[nameIndex] = { ...name, width: 495, height: 60, font, shrinkToFit: false };
    const other = await renderDraftDesign(org, design.id, doc, { widthPx: 200 });
    expect(other.overflows).toEqual([{ index: nameIndex, recipientName: "சுப்பிரமணியன் வெங்கடராமன் கிருஷ்ணமூர்த்தி" }]);
    expect(other.warnings).toEqual([]);

    // A name typed in the editor replaces the list: only it is tried.
    const typed = await renderDraftDesign(org, design.id, doc, { recipientName: "Ada Lovelace", widthPx: 200 });
    expect(typed.sample.recipientName).toBe("Ada Lovelace");
    expect(typed.overflows).toEqual([]);
  });

  it("uses the longest credential name among the templates that use the design", async () => {
    const org = await createOrganization({ slug: "drafts-groups", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const longName = "Certificate of Completion: Occupational Health and Safety Management Systems (ISO 45001) Lead Auditor";
    await createGroup(org.id, { name: "First aid", designIds: [design.id] });
    await createGroup(org.id, { name: longName, designIds: [design.id] });
    // Another organization's template never shows.
    const other = await createOrganization({ slug: "drafts-groups-other", plan: "premium" });
    const doc = DesignDocument.parse(defaultDocument("certificate"));
    const preview = await renderDraftDesign(org, design.id, doc, { widthPx: 200 });
    expect(preview.sample.groupName).toBe(longName);
    const theirs = await createDesign(other, { name: "D", type: "certificate" });
    expect((await renderDraftDesign(other, theirs.id, doc, { widthPx: 200 })).sample.groupName).toBe(LONG_GROUP_NAMES.certificate);
  });

  it("does not find another organization's design", async () => {
    const owner = await createOrganization({ slug: "drafts-owner", plan: "premium" });
    const other = await createOrganization({ slug: "drafts-other", plan: "premium" });
    const design = await createDesign(owner, { name: "Private", type: "certificate" });
    const refused = await refusal(renderDraftDesign(other, design.id, DesignDocument.parse(defaultDocument("certificate"))));
    expect(refused.code).toBe("not_found");
  });
});
