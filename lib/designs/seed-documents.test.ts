import { describe, expect, it } from "vitest";
import { canvasSize, DesignDocument, FONT_CATALOG, FONT_FAMILIES } from "../render/document";
import { SEED_DESIGNS } from "./seed-documents";
import { defaultDocument } from "./defaults";

// A design is a picture: it cannot know whether the credential it shows is genuine, still valid or
// from the issuer it names. The starters say nothing of the kind; the QR code to the wallet page and
// the credential id (where the checks are) do that job honestly. An invitation to check ("Scan to
// verify") claims nothing and stays.
const CLAIMS = /\bverified\b|\bauthentic|\bgenuine\b|\bseal\b|\bstamp\b|\bofficial\b/i;

const starters = [
  ...SEED_DESIGNS.map((seed) => ({ name: seed.name, document: DesignDocument.parse(seed.document) })),
  { name: "default certificate", document: DesignDocument.parse(defaultDocument("certificate")) },
  { name: "default badge", document: DesignDocument.parse(defaultDocument("badge")) },
];

describe("starter designs", () => {
  it("are at least ten: landscape and portrait certificates and badges, together using every font family", () => {
    expect(SEED_DESIGNS.length).toBeGreaterThanOrEqual(10);
    const docs = SEED_DESIGNS.map((seed) => ({ ...seed, parsed: DesignDocument.parse(seed.document) }));
    const certificates = docs.filter((d) => d.type === "certificate").map((d) => canvasSize(d.parsed.canvas));
    expect(certificates.some((s) => s.width > s.height)).toBe(true);
    expect(certificates.some((s) => s.width < s.height)).toBe(true);
    expect(docs.filter((d) => d.type === "badge").length).toBeGreaterThanOrEqual(4);
    expect(new Set(SEED_DESIGNS.map((s) => s.name)).size).toBe(SEED_DESIGNS.length);
    const used = new Set(docs.flatMap((d) => d.parsed.elements.flatMap((e) => (e.type === "text" ? [e.font.family] : []))));
    expect([...FONT_FAMILIES].filter((f) => !used.has(f))).toEqual([]);
    expect(new Set([...used].map((f) => FONT_CATALOG[f].kind))).toEqual(new Set(["sans", "serif", "script", "monospace", "display"]));
  });

  it.each(starters)("$name prints no word or seal that claims a verification", ({ document }) => {
    for (const element of document.elements) {
      if (element.type === "text") expect(element.text).not.toMatch(CLAIMS);
      expect((element as { id?: string }).id ?? "").not.toMatch(/seal/i);
    }
  });

  it.each(SEED_DESIGNS.map((seed) => ({ name: seed.name, document: DesignDocument.parse(seed.document) })))(
    "$name shows a QR code to the wallet page and the credential id",
    ({ document }) => {
      expect(document.elements.some((e) => e.type === "qr")).toBe(true);
      expect(document.elements.some((e) => e.type === "text" && e.text.includes("[credential.id]"))).toBe(true);
    },
  );
});
