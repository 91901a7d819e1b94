// Previews in every script (issue 18's "Done when"): credentials named in Arabic, Hebrew, Devanagari
// and Thai, and one with an emoji in a custom attribute, issue and render as PNG and PDF (200), and
// pdftotext reads their text back from the PDF; a character no bundled font has is a 422
// unsupported_text naming it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus } from "../support/api-helpers";

type CredentialDesign = { id: string; name: string; previews: { format: "png" | "pdf"; url: string }[] };

/** Text of a PDF as pdftotext reads it, without the embedding marks it puts around right-to-left lines. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-pdf-"));
  try {
    const file = path.join(dir, "preview.pdf");
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"])
      .toString("utf8")
      .replace(/[\u202a-\u202e\u2066-\u2069]/g, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function designsOf(api: APIRequestContext, credentialId: string): Promise<CredentialDesign[]> {
  const body = await expectStatus(await api.get(`/v1/credentials/${credentialId}/designs`), 200);
  return (Array.isArray(body) ? body : body.data) as CredentialDesign[];
}

const pathOf = (url: string) => new URL(url).pathname;

/** A certificate showing the name and a custom attribute, a badge with the default layout. */
async function group(api: APIRequestContext) {
  const certificate = await createDesign(api, "certificate", {
    document: {
      version: 1,
      canvas: { size: "A4", orientation: "landscape" },
      elements: [
        {
          type: "text",
          x: 40,
          y: 40,
          width: 700,
          height: 60,
          text: "[recipient.name]",
          font: { family: "Great Vibes", size: 40 },
          align: "center",
        },
        {
          type: "text",
          x: 40,
          y: 140,
          width: 700,
          height: 40,
          text: "Award: [custom.award]",
          font: { family: "Inter", size: 18 },
          align: "center",
        },
      ],
    },
  });
  const badge = await createDesign(api, "badge");
  return createGroup(api, { name: "Advanced Data Analysis", designIds: [certificate.id, badge.id] });
}

const CASES = [
  { name: "محمد علي", award: "Honours" },
  { name: "דוד כהן", award: "Honours" },
  { name: "अनन्या शर्मा", award: "Honours" },
  { name: "สมชาย ใจดี", award: "Honours" },
  { name: "Li Na", award: "Top of the class 🎓" },
];

test.describe("previews in every script", () => {
  test("the five credentials of issue 18 issue, render as PNG and PDF, and read back from the PDF", async ({ api, client }) => {
    const g = await group(api);
    const http = await client({ version: null });
    for (const { name, award } of CASES) {
      const credential = await expectStatus(
        await api.post("/v1/credentials", { data: { groupId: g.id, recipient: { name }, customAttributes: { "custom.award": award } } }),
        201,
      );
      await expectStatus(await api.post(`/v1/credentials/${credential.id}/issue`), 200);
      const designs = await designsOf(api, credential.id);
      expect(designs).toHaveLength(2);
      for (const design of designs) {
        const png = await http.get(pathOf(design.previews.find((p) => p.format === "png")!.url));
        expect(png.status(), `${name} PNG`).toBe(200);
        expect((await png.body()).subarray(0, 4).toString("hex")).toBe("89504e47");
        const pdf = await http.get(pathOf(design.previews.find((p) => p.format === "pdf")!.url));
        expect(pdf.status(), `${name} PDF`).toBe(200);
        const text = pdfText(await pdf.body());
        expect(text, `${name}: the PDF's text`).toContain(name);
      }
      // The certificate shows the custom attribute, emoji included.
      const certificatePdf = await http.get(pathOf(designs[0]!.previews.find((p) => p.format === "pdf")!.url));
      expect(pdfText(await certificatePdf.body())).toContain(`Award: ${award}`);
    }
  });

  test("a character no bundled font has → 422 unsupported_text naming it", async ({ api, client }) => {
    const g = await group(api);
    const credential = await expectStatus(
      await api.post("/v1/credentials", { data: { groupId: g.id, recipient: { name: "ሰላም Abebe" } } }),
      201,
    );
    const designs = await designsOf(api, credential.id);
    const http = await client({ version: null });
    const res = await http.get(pathOf(designs[0]!.previews.find((p) => p.format === "png")!.url));
    const error = await expectError(res, 422, "unsupported_text");
    expect(error.error.message).toContain("ሰ U+1230");
  });
});
