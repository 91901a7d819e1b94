// Previews (docs/api.md, Previews): GET /v1/credentials/{id}/designs and the public, immutable,
// digest-versioned files it points to at /previews/<digest>.png|.pdf.
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus, type Design, type Group } from "../support/api-helpers";

type Preview = { format: "png" | "pdf"; url: string };
type CredentialDesign = { id: string; name: string; previews: Preview[] };
type Credential = { id: string; publicId: string; recipient: { id: string; name: string; email: string } | null; [k: string]: unknown };

const PREVIEW_PATH = /^\/previews\/([0-9a-f]{40})\.(png|pdf)$/;
const IMMUTABLE = "public, max-age=31536000, immutable";
const PNG_SIGNATURE = "89504e470d0a1a0a";
/** Page sizes in points: A4 landscape (842 x 595; 841.89 x 595.28 exactly) and the 600 pt badge square. */
const A4_LANDSCAPE = { width: 842, height: 595 };
const BADGE = { width: 600, height: 600 };

/**
 * Preview URLs are absolute, built from PUBLIC_URL (here http://localhost:<port>, a name that may
 * resolve to ::1 where the test server listens on 127.0.0.1 only): requests go to the test server
 * with the URL's path, as a proxy at PUBLIC_URL would send them.
 */
function pathOf(url: string): string {
  const parsed = new URL(url);
  expect(["http:", "https:"]).toContain(parsed.protocol);
  expect(parsed.host.length).toBeGreaterThan(0);
  expect(parsed.search).toBe("");
  expect(parsed.pathname).toMatch(PREVIEW_PATH);
  return parsed.pathname;
}

function digestOf(url: string): string {
  return PREVIEW_PATH.exec(new URL(url).pathname)![1]!;
}

function urlOf(design: CredentialDesign, format: "png" | "pdf"): string {
  const preview = design.previews.find((p) => p.format === format);
  expect(preview, `${format} preview of ${design.id}`).toBeTruthy();
  return preview!.url;
}

async function credentialDesigns(api: APIRequestContext, credentialId: string): Promise<CredentialDesign[]> {
  const body = await expectStatus(await api.get(`/v1/credentials/${credentialId}/designs`), 200);
  return (Array.isArray(body) ? body : body.data) as CredentialDesign[];
}

/** A public request context: no token, no Service-Version. */
async function publicClient(client: (o?: { version?: string | null }) => Promise<APIRequestContext>): Promise<APIRequestContext> {
  return client({ version: null });
}

type Fetched = { res: APIResponse; body: Buffer };

async function fetchPreview(http: APIRequestContext, url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const res = await http.get(pathOf(url), { headers });
  return { res, body: await res.body() };
}

/** GET → 200 with every header the contract asks for, and a body of the right kind. */
async function expectPreview(http: APIRequestContext, url: string): Promise<Buffer> {
  const format = new URL(url).pathname.endsWith(".pdf") ? "pdf" : "png";
  const { res, body } = await fetchPreview(http, url);
  expect(res.status(), `${url}: ${body.subarray(0, 300).toString()}`).toBe(200);
  const h = res.headers();
  expect(h["content-type"]).toBe(format === "png" ? "image/png" : "application/pdf");
  // Its presence is checked by its own test ("Content-Length ..."), so that one missing header does
  // not hide what the other tests check; when present it must be the body's length.
  if (h["content-length"] !== undefined) expect(h["content-length"]).toBe(String(body.length));
  expect(h["cache-control"]).toBe(IMMUTABLE);
  // A strong validator: quoted, no W/ prefix.
  expect(h["etag"]).toMatch(/^"[^"]+"$/);
  if (format === "png") expect(body.subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
  else expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  return body;
}

function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

async function pdfInfo(body: Buffer) {
  const pdf = await PDFDocument.load(body, { updateMetadata: false });
  const { width, height } = pdf.getPage(0).getSize();
  return {
    pages: pdf.getPageCount(),
    width,
    height,
    title: pdf.getTitle() ?? "",
    author: pdf.getAuthor() ?? "",
    subject: pdf.getSubject() ?? "",
  };
}

async function newCredential(
  api: APIRequestContext,
  groupId: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Credential> {
  return expectStatus(
    await api.post("/v1/credentials", {
      data: {
        groupId,
        recipient: { name, email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}.${Math.random().toString(36).slice(2, 8)}@example.com` },
        ...extra,
      },
    }),
    201,
  );
}

type Setup = { badge: Design; certificate: Design; group: Group; credential: Credential };

/** A group showing a badge then a certificate (both with the default layouts), and a credential in it. */
async function setup(api: APIRequestContext, name = "Ada Lovelace"): Promise<Setup> {
  const certificate = await createDesign(api, "certificate");
  const badge = await createDesign(api, "badge");
  const group = await createGroup(api, { name: "Analytical Engines 101", designIds: [badge.id, certificate.id] });
  const credential = await newCredential(api, group.id, name);
  return { badge, certificate, group, credential };
}

test.describe("GET /v1/credentials/{id}/designs", () => {
  test("lists the group's designs in group order, each with absolute png and pdf URLs of one digest", async ({ api }) => {
    const { badge, certificate, credential } = await setup(api);
    const designs = await credentialDesigns(api, credential.id);
    expect(designs.map((d) => d.id)).toEqual([badge.id, certificate.id]);
    expect(designs.map((d) => d.name)).toEqual([badge.name, certificate.name]);
    for (const d of designs) {
      expect(d.previews.map((p) => p.format).sort()).toEqual(["pdf", "png"]);
      const png = urlOf(d, "png");
      const pdf = urlOf(d, "pdf");
      pathOf(png);
      pathOf(pdf);
      expect(digestOf(png)).toBe(digestOf(pdf));
    }
    expect(digestOf(urlOf(designs[0]!, "png"))).not.toBe(digestOf(urlOf(designs[1]!, "png")));
    // Same inputs, same URLs.
    expect(await credentialDesigns(api, credential.id)).toEqual(designs);
  });

  test("another organization's credential → 404", async ({ api, newOrg, client }) => {
    const { credential } = await setup(api);
    const other = await client({ token: (await newOrg()).token });
    await expectError(await other.get(`/v1/credentials/${credential.id}/designs`), 404, "not_found");
    await expectError(await api.get(`/v1/credentials/cred_doesnotexist/designs`), 404, "not_found");
  });
});

test.describe("preview files", () => {
  test("PNG and PDF: 200 with Content-Type, immutable Cache-Control, strong ETag; sane sizes and metadata", async ({ api, client }) => {
    const { credential, group } = await setup(api, "Grace Hopper");
    const http = await publicClient(client);
    const [badge, certificate] = await credentialDesigns(api, credential.id);
    for (const [design, page] of [
      [badge!, BADGE],
      [certificate!, A4_LANDSCAPE],
    ] as const) {
      const png = await expectPreview(http, urlOf(design, "png"));
      const size = pngSize(png);
      expect(size.width).toBe(1600);
      expect(size.height).toBe(Math.round((1600 * page.height) / page.width));

      const pdf = await pdfInfo(await expectPreview(http, urlOf(design, "pdf")));
      expect(pdf.pages).toBe(1);
      expect(Math.abs(pdf.width - page.width)).toBeLessThan(1);
      expect(Math.abs(pdf.height - page.height)).toBeLessThan(1);
      expect(pdf.title).toContain("Grace Hopper");
      expect(pdf.subject).toBe(group.name);
    }
  });

  test("Content-Length on GET and HEAD is the body's length", async ({ api, client }) => {
    const { credential } = await setup(api);
    const http = await publicClient(client);
    for (const design of await credentialDesigns(api, credential.id)) {
      for (const format of ["png", "pdf"] as const) {
        const url = urlOf(design, format);
        const { res, body } = await fetchPreview(http, url, { "Accept-Encoding": "identity" });
        expect(res.status()).toBe(200);
        expect(res.headers()["content-length"], `GET ${url}: headers ${JSON.stringify(res.headers())}`).toBe(String(body.length));
        const head = await http.head(pathOf(url), { headers: { "Accept-Encoding": "identity" } });
        expect(head.headers()["content-length"], `HEAD ${url}: headers ${JSON.stringify(head.headers())}`).toBe(String(body.length));
      }
    }
  });

  test("If-None-Match with the ETag → 304 without a body; another ETag → 200", async ({ api, client }) => {
    const { credential } = await setup(api);
    const http = await publicClient(client);
    for (const design of await credentialDesigns(api, credential.id)) {
      for (const format of ["png", "pdf"] as const) {
        const url = urlOf(design, format);
        const first = await fetchPreview(http, url);
        expect(first.res.status()).toBe(200);
        const etag = first.res.headers()["etag"]!;
        const revalidated = await fetchPreview(http, url, { "If-None-Match": etag });
        expect(revalidated.res.status()).toBe(304);
        expect(revalidated.body.length).toBe(0);
        expect(revalidated.res.headers()["etag"]).toBe(etag);
        expect(revalidated.res.headers()["cache-control"]).toBe(IMMUTABLE);
        // In a list of validators, too.
        expect((await fetchPreview(http, url, { "If-None-Match": `"nope", ${etag}` })).res.status()).toBe(304);
        const other = await fetchPreview(http, url, { "If-None-Match": '"something-else"' });
        expect(other.res.status()).toBe(200);
        expect(other.body.equals(first.body)).toBe(true);
      }
    }
  });

  test("HEAD → 200 with the GET's headers and no body", async ({ api, client }) => {
    const { credential } = await setup(api);
    const http = await publicClient(client);
    for (const design of await credentialDesigns(api, credential.id)) {
      for (const format of ["png", "pdf"] as const) {
        const url = urlOf(design, format);
        // HEAD first, on a URL never rendered: it must not answer before knowing the length.
        const head = await http.head(pathOf(url));
        expect(head.status()).toBe(200);
        expect((await head.body()).length).toBe(0);
        const got = await fetchPreview(http, url);
        const h = head.headers();
        expect(h["content-type"]).toBe(got.res.headers()["content-type"]);
        if (h["content-length"] !== undefined) expect(h["content-length"]).toBe(String(got.body.length));
        expect(h["cache-control"]).toBe(IMMUTABLE);
        expect(h["etag"]).toBe(got.res.headers()["etag"]);
      }
    }
  });

  test("a never-issued digest and malformed file names → 404", async ({ api, client }) => {
    const { credential } = await setup(api);
    const http = await publicClient(client);
    const digest = digestOf(urlOf((await credentialDesigns(api, credential.id))[0]!, "png"));
    const never = "0123456789abcdef0123456789abcdef01234567";
    expect(never).toHaveLength(40);
    for (const path of [
      `/previews/${never}.png`,
      `/previews/${never}.pdf`,
      `/previews/${"f".repeat(40)}.png`,
      `/previews/${digest.slice(0, 39)}.png`,
      `/previews/${digest}0.png`,
      `/previews/${digest.toUpperCase()}.png`,
      `/previews/${digest}.gif`,
      `/previews/${digest}.PNG`,
      `/previews/${digest}`,
      `/previews/${digest}.png.bak`,
      `/previews/..%2F${digest}.png`,
      `/previews/not-a-digest.png`,
    ]) {
      const res = await http.get(path);
      expect(res.status(), path).toBe(404);
      expect(res.headers()["cache-control"] ?? "", path).not.toContain("immutable");
    }
    // The real one still answers.
    expect((await http.get(`/previews/${digest}.png`)).status()).toBe(200);
  });

  test("?download= saves under the link's name, always with the served format's extension and nothing disguising it", async ({
    api,
    client,
  }) => {
    const { credential } = await setup(api);
    const http = await publicClient(client);
    const design = (await credentialDesigns(api, credential.id))[0]!;
    const cases: ["png" | "pdf", string, string][] = [
      ["png", "Ada Lovelace.png", 'attachment; filename="Ada Lovelace.png"'],
      // A right-to-left override would show "invoice\u202Egnp.exe" as "invoiceexe.png".
      ["png", "invoice\u202Egnp.exe", 'attachment; filename="invoice gnp.exe.png"'],
      ["pdf", "report.png", 'attachment; filename="report.png.pdf"'],
      ["pdf", '..\\..\\"boot"\u2066.ini\u2069', 'attachment; filename="boot .ini.pdf"'],
      ["pdf", "Zoë Ñúñez", `attachment; filename="Zoe Nunez.pdf"; filename*=UTF-8''Zo%C3%AB%20%C3%91%C3%BA%C3%B1ez.pdf`],
    ];
    for (const [format, name, disposition] of cases) {
      const res = await http.get(`${pathOf(urlOf(design, format))}?download=${encodeURIComponent(name)}`);
      expect(res.status(), name).toBe(200);
      expect(res.headers()["content-disposition"], name).toBe(disposition);
    }
    // Without ?download= the file is shown, not downloaded.
    expect((await http.get(pathOf(urlOf(design, "png")))).headers()["content-disposition"]).toBeUndefined();
  });

  test("preview URLs are public: no token, another organization's token and the owner get the same bytes", async ({
    api,
    client,
    newOrg,
  }) => {
    const { credential } = await setup(api);
    const url = urlOf((await credentialDesigns(api, credential.id))[1]!, "png");
    const anonymous = await publicClient(client);
    const otherOrg = await client({ token: (await newOrg()).token });
    const a = await expectPreview(anonymous, url);
    const b = await expectPreview(otherOrg, url);
    const c = await expectPreview(api, url);
    expect(b.equals(a)).toBe(true);
    expect(c.equals(a)).toBe(true);
  });

  test("10 concurrent first requests for one fresh URL all get identical bytes", async ({ api, client }) => {
    const { credential } = await setup(api, "Katherine Johnson");
    const http = await publicClient(client);
    for (const format of ["png", "pdf"] as const) {
      const url = urlOf((await credentialDesigns(api, credential.id))[1]!, format);
      const results = await Promise.all(Array.from({ length: 10 }, () => fetchPreview(http, url)));
      for (const r of results) expect(r.res.status()).toBe(200);
      for (const r of results) expect(r.body.equals(results[0]!.body)).toBe(true);
      for (const r of results) expect(r.res.headers()["etag"]).toBe(results[0]!.res.headers()["etag"]);
      expect((await fetchPreview(http, url)).body.equals(results[0]!.body)).toBe(true);
    }
  });

  test("a design's previewUrl answers a PNG (sample values), publicly", async ({ api, client }) => {
    const http = await publicClient(client);
    for (const type of ["certificate", "badge"] as const) {
      const design = await createDesign(api, type);
      const png = await expectPreview(http, design.previewUrl);
      const page = type === "badge" ? BADGE : A4_LANDSCAPE;
      const size = pngSize(png);
      expect(size.height).toBe(Math.round((size.width * page.height) / page.width));
      // Stable while the design does not change.
      expect((await expectStatus(await api.get(`/v1/designs/${design.id}`), 200)).previewUrl).toBe(design.previewUrl);
    }
  });
});

test.describe("versions", () => {
  test("PATCH of the recipient name: new URLs; old URLs keep the old bytes, even one first fetched after the change", async ({
    api,
    client,
  }) => {
    const { credential } = await setup(api, "Ada Lovelace");
    const http = await publicClient(client);
    const before = await credentialDesigns(api, credential.id);
    // The badge's PNG is rendered before the change; the certificate's PDF only after it.
    const oldBadgePng = await expectPreview(http, urlOf(before[0]!, "png"));

    await expectStatus(
      await api.patch(`/v1/credentials/${credential.id}`, { data: { recipient: { id: credential.recipient!.id, name: "Ada King" } } }),
      200,
    );
    const after = await credentialDesigns(api, credential.id);
    expect(after.map((d) => d.id)).toEqual(before.map((d) => d.id));
    for (const [i, d] of after.entries()) {
      for (const format of ["png", "pdf"] as const) expect(urlOf(d, format), `${d.id} ${format}`).not.toBe(urlOf(before[i]!, format));
    }

    // Old URLs answer the old rendering, byte for byte.
    expect((await expectPreview(http, urlOf(before[0]!, "png"))).equals(oldBadgePng)).toBe(true);
    const newBadgePng = await expectPreview(http, urlOf(after[0]!, "png"));
    expect(newBadgePng.equals(oldBadgePng)).toBe(false);
    // A URL handed out before the change but never fetched renders from its stored inputs.
    const oldPdf = await pdfInfo(await expectPreview(http, urlOf(before[1]!, "pdf")));
    expect(oldPdf.title).toContain("Ada Lovelace");
    const newPdf = await pdfInfo(await expectPreview(http, urlOf(after[1]!, "pdf")));
    expect(newPdf.title).toContain("Ada King");

    // Back to the old name: the same inputs again, so the very same URLs.
    await expectStatus(
      await api.patch(`/v1/credentials/${credential.id}`, { data: { recipient: { id: credential.recipient!.id, name: "Ada Lovelace" } } }),
      200,
    );
    expect(await credentialDesigns(api, credential.id)).toEqual(before);
  });

  test("PATCH of a custom attribute: same URLs for designs that do not show it, a new URL for one that does", async ({ api, client }) => {
    const { certificate, credential, group } = await setup(api);
    const before = await credentialDesigns(api, credential.id);
    await expectStatus(
      await api.patch(`/v1/credentials/${credential.id}`, { data: { customAttributes: { "custom.note": "not on any design" } } }),
      200,
    );
    expect(await credentialDesigns(api, credential.id)).toEqual(before);

    // A design showing [custom.grade], in a group of its own with the plain certificate.
    const graded = await createDesign(api, "certificate", {
      document: {
        version: 1,
        canvas: { size: "A4", orientation: "landscape" },
        elements: [
          { type: "text", x: 40, y: 40, width: 500, height: 40, text: "[recipient.name]", font: { family: "Inter", size: 24 } },
          { type: "text", x: 40, y: 100, width: 500, height: 40, text: "Grade: [custom.grade]", font: { family: "Inter", size: 18 } },
        ],
      },
    });
    const group2 = await createGroup(api, { designIds: [graded.id, certificate.id] });
    expect(group2.id).not.toBe(group.id);
    const c2 = await newCredential(api, group2.id, "Alan Turing", { customAttributes: { "custom.grade": "A" } });
    const v1 = await credentialDesigns(api, c2.id);
    const http = await publicClient(client);
    const gradeA = await expectPreview(http, urlOf(v1[0]!, "png"));

    await expectStatus(await api.patch(`/v1/credentials/${c2.id}`, { data: { customAttributes: { "custom.grade": "A+" } } }), 200);
    const v2 = await credentialDesigns(api, c2.id);
    expect(urlOf(v2[0]!, "png")).not.toBe(urlOf(v1[0]!, "png"));
    expect(urlOf(v2[1]!, "png")).toBe(urlOf(v1[1]!, "png"));
    expect(urlOf(v2[1]!, "pdf")).toBe(urlOf(v1[1]!, "pdf"));
    expect((await expectPreview(http, urlOf(v1[0]!, "png"))).equals(gradeA)).toBe(true);
    expect((await expectPreview(http, urlOf(v2[0]!, "png"))).equals(gradeA)).toBe(false);

    // An attribute of another credential changes nothing here.
    await expectStatus(await api.patch(`/v1/credentials/${credential.id}`, { data: { customAttributes: { "custom.grade": "B" } } }), 200);
    expect(await credentialDesigns(api, c2.id)).toEqual(v2);
  });

  test("PATCH /v1/designs/{id}: that design's URLs change, the others' do not; old URLs keep the old revision's bytes", async ({
    api,
    client,
  }) => {
    const { certificate, credential } = await setup(api);
    const http = await publicClient(client);
    const before = await credentialDesigns(api, credential.id);
    const oldCertPng = await expectPreview(http, urlOf(before[1]!, "png"));
    const oldCertPdf = await expectPreview(http, urlOf(before[1]!, "pdf"));
    const oldPreviewUrl = certificate.previewUrl;

    const document = structuredClone(certificate.document) as { background?: { color: string; image: null }; [k: string]: unknown };
    document.background = { color: "#f3e9d2", image: null };
    const patched: Design = await expectStatus(await api.patch(`/v1/designs/${certificate.id}`, { data: { document } }), 200);
    expect(patched.previewUrl).not.toBe(oldPreviewUrl);
    expect(patched.updatedAt >= certificate.updatedAt).toBe(true);

    const after = await credentialDesigns(api, credential.id);
    expect(urlOf(after[1]!, "png")).not.toBe(urlOf(before[1]!, "png"));
    expect(urlOf(after[1]!, "pdf")).not.toBe(urlOf(before[1]!, "pdf"));
    expect(urlOf(after[0]!, "png")).toBe(urlOf(before[0]!, "png"));
    expect(urlOf(after[0]!, "pdf")).toBe(urlOf(before[0]!, "pdf"));

    expect((await expectPreview(http, urlOf(before[1]!, "png"))).equals(oldCertPng)).toBe(true);
    expect((await expectPreview(http, urlOf(before[1]!, "pdf"))).equals(oldCertPdf)).toBe(true);
    expect((await expectPreview(http, urlOf(after[1]!, "png"))).equals(oldCertPng)).toBe(false);
    // The design's own sample preview: the old one still answers the old revision, the new one differs.
    const oldSample = await expectPreview(http, oldPreviewUrl);
    const newSample = await expectPreview(http, patched.previewUrl);
    expect(newSample.equals(oldSample)).toBe(false);
  });

  test("a URL handed out before a design change but first fetched after it renders the old revision", async ({ api, client }) => {
    const { certificate, credential } = await setup(api);
    const http = await publicClient(client);
    const before = await credentialDesigns(api, credential.id);
    const document = structuredClone(certificate.document) as { background?: { color: string; image: null }; [k: string]: unknown };
    document.background = { color: "#102030", image: null };
    await expectStatus(await api.patch(`/v1/designs/${certificate.id}`, { data: { document } }), 200);
    const after = await credentialDesigns(api, credential.id);
    const oldPng = await expectPreview(http, urlOf(before[1]!, "png"));
    const newPng = await expectPreview(http, urlOf(after[1]!, "png"));
    expect(oldPng.equals(newPng)).toBe(false);
  });

  test("DELETE of the credential: its preview URLs answer 404, including ones fetched and cached before", async ({ api, client }) => {
    const { credential } = await setup(api);
    const http = await publicClient(client);
    const designs = await credentialDesigns(api, credential.id);
    const cached = urlOf(designs[0]!, "png");
    const etag = (await fetchPreview(http, cached)).res.headers()["etag"]!;
    await expectPreview(http, urlOf(designs[1]!, "pdf"));
    const urls = designs.flatMap((d) => d.previews.map((p) => p.url));

    expect((await api.delete(`/v1/credentials/${credential.id}`)).status()).toBe(204);
    for (const url of urls) {
      const { res } = await fetchPreview(http, url);
      expect(res.status(), url).toBe(404);
      expect(res.headers()["cache-control"] ?? "", url).not.toContain("immutable");
    }
    // A client revalidating its cached copy learns that it is gone.
    expect((await fetchPreview(http, cached, { "If-None-Match": etag })).res.status()).toBe(404);
    expect((await http.head(pathOf(cached))).status()).toBe(404);
    await expectError(await api.get(`/v1/credentials/${credential.id}/designs`), 404, "not_found");
  });

  test("DELETE while a first render is in flight: the URLs still answer 404 afterwards", async ({ api, client }) => {
    // The render started before the delete must not leave its file behind to be served forever.
    const { credential } = await setup(api);
    const http = await publicClient(client);
    const urls = (await credentialDesigns(api, credential.id)).flatMap((d) => d.previews.map((p) => p.url));
    const firstFetches = urls.map((url) => fetchPreview(http, url));
    await new Promise((r) => setTimeout(r, 30));
    expect((await api.delete(`/v1/credentials/${credential.id}`)).status()).toBe(204);
    await Promise.all(firstFetches);
    for (const url of urls) expect((await fetchPreview(http, url)).res.status(), `${url} after the delete`).toBe(404);
  });
});
