// Designs: GET/POST/PATCH /v1/designs (docs/api.md, Success statuses and pagination, Groups and designs).
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import {
  badgeDocument,
  certificateDocument,
  createDesign,
  expectError,
  expectStatus,
  listAll,
  makePng,
  pngDataUri,
  type Design,
} from "../support/api-helpers";

const SPEC_KEYS = ["createdAt", "id", "name", "previewUrl", "type", "updatedAt"];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function expectAbsoluteUrl(url: string) {
  const parsed = new URL(url); // throws on a relative URL
  expect(["http:", "https:"]).toContain(parsed.protocol);
  expect(parsed.host.length).toBeGreaterThan(0);
}

async function get(api: APIRequestContext, id: string): Promise<Design> {
  return expectStatus(await api.get(`/v1/designs/${id}`), 200);
}

test.describe("create", () => {
  for (const type of ["certificate", "badge"] as const) {
    test(`${type} without a document gets a default layout; every spec field present`, async ({ api }) => {
      const res = await api.post("/v1/designs", { data: { name: `Default ${type}`, type } });
      const design: Design = await expectStatus(res, 201);
      for (const key of SPEC_KEYS) expect(design, `field ${key}`).toHaveProperty(key);
      expect(design.name).toBe(`Default ${type}`);
      expect(design.type).toBe(type);
      expect(design.createdAt).toMatch(ISO);
      expect(design.updatedAt).toMatch(ISO);
      expectAbsoluteUrl(design.previewUrl);
      const doc = design.document as { version: number; canvas: { size: string }; elements: unknown[] };
      expect(doc.version).toBe(1);
      expect(doc.canvas.size).toBe(type === "badge" ? "square" : "A4");
      expect(doc.elements.length).toBeGreaterThan(0);
      expect(await get(api, design.id)).toEqual(design);
      expect(await listAll(api, "/v1/designs")).toEqual([design]);
    });
  }

  test("with a document: the document is kept", async ({ api }) => {
    const document = certificateDocument([{ type: "rect", x: 10, y: 10, width: 100, height: 50, fill: "#ff0000" }]);
    const design = await createDesign(api, "certificate", { document });
    const doc = design.document as { canvas: { size: string; orientation: string }; elements: { type: string; text?: string }[] };
    expect(doc.canvas).toMatchObject({ size: "A4", orientation: "landscape" });
    expect(doc.elements.map((e) => e.type)).toEqual(["text", "rect"]);
    expect(doc.elements[0]!.text).toBe("[recipient.name]");
  });

  test("invalid documents → validation_error at document… paths; nothing created", async ({ api }) => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["wrong version", { ...certificateDocument(), version: 2 }, "certificate", "document.version"],
      ["no canvas", { version: 1, elements: [] }, "certificate", "document.canvas"],
      ["unknown canvas size", { version: 1, canvas: { size: "A3" } }, "certificate", "document.canvas.size"],
      ["badge on A4", certificateDocument(), "badge", "document.canvas.size"],
      ["certificate on a square", badgeDocument(), "certificate", "document.canvas.size"],
      [
        "element outside the canvas",
        certificateDocument([{ type: "rect", x: 800, y: 10, width: 100, height: 10 }]),
        "certificate",
        "document.elements[1]",
      ],
      [
        "unknown attribute placeholder",
        {
          version: 1,
          canvas: { size: "A4" },
          elements: [{ type: "text", x: 1, y: 1, width: 100, height: 20, text: "[recipient.age]", font: {} }],
        },
        "certificate",
        "document.elements[0].text",
      ],
      [
        "bad colour",
        {
          version: 1,
          canvas: { size: "A4" },
          elements: [{ type: "text", x: 1, y: 1, width: 100, height: 20, text: "Hi", font: { color: "red" } }],
        },
        "certificate",
        "document.elements[0].font.color",
      ],
      ["unknown document field", { ...certificateDocument(), script: "alert(1)" }, "certificate", "document.script"],
      ["document not an object", "a document" as unknown as Record<string, unknown>, "certificate", "document"],
    ];
    for (const [label, document, type, path] of cases) {
      const body = await expectError(await api.post("/v1/designs", { data: { name: label, type, document } }), 400, "validation_error", {
        paths: [path],
      });
      for (const d of body.error.details!) expect(d.path, label).toMatch(/^document/);
    }
    // An unknown element type is reported somewhere under that element.
    const unknownType = await expectError(
      await api.post("/v1/designs", {
        data: {
          name: "x",
          type: "certificate",
          document: { version: 1, canvas: { size: "A4" }, elements: [{ type: "video", x: 1, y: 1 }] },
        },
      }),
      400,
      "validation_error",
    );
    expect(unknownType.error.details!.every((d) => d.path.startsWith("document.elements[0]"))).toBe(true);
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("assets: a real PNG data URI is stored and an image element can use it", async ({ api }) => {
    const design = await createDesign(api, "certificate", {
      assets: { logo: pngDataUri(3, 2) },
      document: certificateDocument([{ type: "image", x: 600, y: 20, width: 60, height: 40, asset: "logo" }]),
    });
    // byteSize is the stored image's: uploads are decoded and encoded again, so not the upload's.
    expect(design.assets).toEqual([{ name: "logo", mimeType: "image/png", width: 3, height: 2, byteSize: expect.any(Number) }]);
    expect((design.assets as { byteSize: number }[])[0]!.byteSize).toBeGreaterThan(0);
    expect(await get(api, design.id)).toEqual(design);
  });

  test("assets: a truncated PNG → validation_error at assets.<name> saying so; nothing created or changed", async ({ api }) => {
    const whole = makePng(300, 200);
    const truncated = `data:image/png;base64,${whole.subarray(0, whole.length - 40).toString("base64")}`;
    await expectError(
      await api.post("/v1/designs", { data: { name: "Cut", type: "badge", assets: { logo: truncated } } }),
      400,
      "validation_error",
      {
        paths: ["assets.logo"],
        message: /assets\.logo: is not a complete PNG image/,
      },
    );
    expect(await listAll(api, "/v1/designs")).toEqual([]);

    const design = await createDesign(api, "badge", { assets: { logo: pngDataUri(4, 4) } });
    await expectError(
      await api.patch(`/v1/designs/${design.id}`, { data: { assets: { logo: truncated, seal: truncated } } }),
      400,
      "validation_error",
      {
        paths: ["assets.logo", "assets.seal"],
      },
    );
    expect(await get(api, design.id)).toEqual(design);
  });

  test("assets: a polyglot PNG (HTML and ZIP bytes after the image) is stored as the image alone", async ({ api }) => {
    const image = makePng(3, 2);
    const trailer = Buffer.from(`<html><script>alert(document.cookie)</script></html>PK\u0003\u0004${"payload".repeat(2000)}`, "latin1");
    const polyglot = `data:image/png;base64,${Buffer.concat([image, trailer]).toString("base64")}`;
    const design = await createDesign(api, "badge", { assets: { logo: polyglot } });
    expect(design.assets).toEqual([{ name: "logo", mimeType: "image/png", width: 3, height: 2, byteSize: expect.any(Number) }]);
    // What was stored is a small image, not the 14 kB that came with it.
    expect((design.assets as { byteSize: number }[])[0]!.byteSize).toBeLessThan(trailer.length / 10);
  });

  test("assets: non-images and non-data-URIs → validation_error at assets.<name>; nothing created", async ({ api }) => {
    const notImages: [string, string][] = [
      ["text as png", `data:image/png;base64,${Buffer.from("hello, not a png").toString("base64")}`],
      ["text/plain", `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`],
      ["svg", `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`],
      ["remote url", "https://example.com/logo.png"],
      ["not base64", "data:image/png;base64,!!!!"],
      ["empty", ""],
    ];
    for (const [label, uri] of notImages) {
      await expectError(
        await api.post("/v1/designs", { data: { name: label, type: "badge", assets: { logo: uri } } }),
        400,
        "validation_error",
        {
          paths: ["assets.logo"],
        },
      );
    }
    await expectError(
      await api.post("/v1/designs", { data: { name: "n", type: "badge", assets: { logo: 12 } } }),
      400,
      "validation_error",
      {
        paths: ["assets.logo"],
      },
    );
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("an image element naming a missing asset → validation_error; nothing created", async ({ api }) => {
    const document = certificateDocument([{ type: "image", x: 10, y: 10, width: 50, height: 50, asset: "seal" }]);
    await expectError(await api.post("/v1/designs", { data: { name: "n", type: "certificate", document } }), 400, "validation_error", {
      paths: ["document.elements[1].asset"],
    });
    await expectError(
      await api.post("/v1/designs", { data: { name: "n", type: "certificate", document, assets: { logo: pngDataUri() } } }),
      400,
      "validation_error",
      { paths: ["document.elements[1].asset"] },
    );
    const background = { ...certificateDocument(), background: { color: "#ffffff", image: { asset: "paper" } } };
    await expectError(
      await api.post("/v1/designs", { data: { name: "n", type: "certificate", document: background } }),
      400,
      "validation_error",
      {
        paths: ["document.background.image.asset"],
      },
    );
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });

  test("name and type are required and checked", async ({ api }) => {
    await expectError(await api.post("/v1/designs", { data: { type: "badge" } }), 400, "validation_error", { paths: ["name"] });
    await expectError(await api.post("/v1/designs", { data: { name: "", type: "badge" } }), 400, "validation_error", { paths: ["name"] });
    await expectError(await api.post("/v1/designs", { data: { name: "n", type: "poster" } }), 400, "validation_error", { paths: ["type"] });
    await expectError(await api.post("/v1/designs", { data: { name: "n" } }), 400, "validation_error", { paths: ["type"] });
    expect(await listAll(api, "/v1/designs")).toEqual([]);
  });
});

test.describe("previewUrl and updates", () => {
  test("previewUrl is stable across reads and changes after a document PATCH", async ({ api }) => {
    const design = await createDesign(api, "badge");
    expectAbsoluteUrl(design.previewUrl);
    const read1 = await get(api, design.id);
    const read2 = await get(api, design.id);
    expect(read1.previewUrl).toBe(design.previewUrl);
    expect(read2.previewUrl).toBe(design.previewUrl);
    expect(read2).toEqual(design);

    const patched: Design = await expectStatus(await api.patch(`/v1/designs/${design.id}`, { data: { document: badgeDocument() } }), 200);
    expectAbsoluteUrl(patched.previewUrl);
    expect(patched.previewUrl).not.toBe(design.previewUrl);
    expect(patched.createdAt).toBe(design.createdAt);
    expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(design.updatedAt));
    const after = await get(api, design.id);
    expect(after.previewUrl).toBe(patched.previewUrl);
    expect(after).toEqual(patched);

    const patchedAgain: Design = await expectStatus(
      await api.patch(`/v1/designs/${design.id}`, {
        data: { document: badgeDocument([{ type: "rect", x: 1, y: 1, width: 10, height: 10 }]) },
      }),
      200,
    );
    expect(patchedAgain.previewUrl).not.toBe(patched.previewUrl);
    expect(patchedAgain.previewUrl).not.toBe(design.previewUrl);
  });

  test("PATCH name changes only the name", async ({ api }) => {
    const design = await createDesign(api, "certificate");
    const renamed: Design = await expectStatus(await api.patch(`/v1/designs/${design.id}`, { data: { name: "Renamed" } }), 200);
    expect(renamed.name).toBe("Renamed");
    expect(renamed.type).toBe(design.type);
    expect(renamed.document).toEqual(design.document);
    expect(renamed.assets).toEqual(design.assets);
    expect(await get(api, design.id)).toEqual(renamed);
  });

  test("PATCH assets and document together; removing a used asset is refused; removing an unknown one too", async ({ api }) => {
    const design = await createDesign(api, "certificate");
    const withLogo: Design = await expectStatus(
      await api.patch(`/v1/designs/${design.id}`, {
        data: {
          assets: { logo: pngDataUri(4, 4) },
          document: certificateDocument([{ type: "image", x: 700, y: 20, width: 40, height: 40, asset: "logo" }]),
        },
      }),
      200,
    );
    expect(withLogo.assets).toEqual([expect.objectContaining({ name: "logo", mimeType: "image/png", width: 4, height: 4 })]);
    expect(withLogo.previewUrl).not.toBe(design.previewUrl);

    await expectError(await api.patch(`/v1/designs/${design.id}`, { data: { assets: { logo: null } } }), 400, "validation_error", {
      paths: ["document.elements[1].asset"],
    });
    await expectError(await api.patch(`/v1/designs/${design.id}`, { data: { assets: { nothere: null } } }), 400, "validation_error", {
      paths: ["assets.nothere"],
    });
    await expectError(
      await api.patch(`/v1/designs/${design.id}`, { data: { assets: { logo: "data:image/png;base64,AAAA" } } }),
      400,
      "validation_error",
      {
        paths: ["assets.logo"],
      },
    );
    expect(await get(api, design.id)).toEqual(withLogo);

    // Removing the asset together with the element that used it is fine.
    const removed: Design = await expectStatus(
      await api.patch(`/v1/designs/${design.id}`, { data: { assets: { logo: null }, document: certificateDocument() } }),
      200,
    );
    expect(removed.assets).toEqual([]);
  });

  test("a design holds at most 20 images, however many PATCHes add them; the 21st is refused and nothing is written", async ({ api }) => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`img${i}`, pngDataUri(2, 2)]));
    const design: Design = await expectStatus(
      await api.post("/v1/designs", { data: { name: "Full", type: "badge", assets: twenty } }),
      201,
    );
    expect(design.assets).toHaveLength(20);
    await expectError(
      await api.patch(`/v1/designs/${design.id}`, { data: { assets: { one_more: pngDataUri(2, 2) } } }),
      400,
      "validation_error",
      {
        paths: ["assets"],
      },
    );
    expect(await get(api, design.id)).toEqual(design);
    // Replacing one, or removing one and adding another, stays within the limit.
    const swapped: Design = await expectStatus(
      await api.patch(`/v1/designs/${design.id}`, { data: { assets: { img0: null, other: pngDataUri(3, 3) } } }),
      200,
    );
    expect(swapped.assets).toHaveLength(20);
  });

  test("a document whose texts add up to more than 10,000 characters → validation_error at document.elements", async ({ api }) => {
    const design = await createDesign(api, "certificate");
    const long = { type: "text", x: 10, y: 10, width: 100, height: 20, text: "x".repeat(2_000), font: {} };
    // Four long texts and the name placeholder fit (8,016 characters); six do not.
    const fits: Design = await expectStatus(
      await api.patch(`/v1/designs/${design.id}`, { data: { document: certificateDocument(Array.from({ length: 4 }, () => long)) } }),
      200,
    );
    await expectError(
      await api.patch(`/v1/designs/${design.id}`, { data: { document: certificateDocument(Array.from({ length: 6 }, () => long)) } }),
      400,
      "validation_error",
      {
        paths: ["document.elements"],
      },
    );
    expect(await get(api, design.id)).toEqual(fits);
  });

  test("invalid PATCHes → validation_error, design unchanged", async ({ api }) => {
    const design = await createDesign(api, "badge", { document: badgeDocument() });
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "certificate" }, "type"],
      [{ name: "" }, "name"],
      [{ document: { ...badgeDocument(), version: 9 } }, "document.version"],
      [{ document: certificateDocument() }, "document.canvas.size"],
      [{ document: badgeDocument([{ type: "image", x: 1, y: 1, width: 10, height: 10, asset: "ghost" }]) }, "document.elements[1].asset"],
      [{ previewUrl: "https://evil.example/x.png" }, "previewUrl"],
    ];
    for (const [body, path] of cases) {
      await expectError(await api.patch(`/v1/designs/${design.id}`, { data: body }), 400, "validation_error", { paths: [path] });
    }
    expect(await get(api, design.id)).toEqual(design);
  });
});

test.describe("other organizations", () => {
  test("another organization's design answers 404 to get and patch, is not listed and not changed", async ({ api, newOrg, client }) => {
    const design = await createDesign(api, "certificate");
    const other = await client({ token: (await newOrg()).token });
    await expectError(await other.get(`/v1/designs/${design.id}`), 404, "not_found");
    await expectError(await other.patch(`/v1/designs/${design.id}`, { data: { name: "Hijacked" } }), 404, "not_found");
    await expectError(await other.patch(`/v1/designs/${design.id}`, { data: { document: certificateDocument() } }), 404, "not_found");
    expect(await listAll(other, "/v1/designs")).toEqual([]);
    expect(await get(api, design.id)).toEqual(design);
  });
});
