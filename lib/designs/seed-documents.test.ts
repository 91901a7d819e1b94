import { describe, expect, it } from "vitest";
import { DesignDocument } from "../render/document";
import { SEED_DESIGNS } from "./seed-documents";
import { defaultDocument } from "./defaults";

// A design is a picture: it cannot know whether the credential it shows is genuine, still valid or
// from the issuer it names. The starters say nothing of the kind; the QR code to the wallet page and
// the credential id (where the checks are) do that job honestly. An invitation to check ("Scan to
// verify") claims nothing and stays.
const CLAIMS = /\bverified\b|\bauthentic|\bgenuine\b|\bseal\b|\bofficial\b/i;

const starters = [
  ...SEED_DESIGNS.map((seed) => ({ name: seed.name, document: DesignDocument.parse(seed.document) })),
  { name: "default certificate", document: DesignDocument.parse(defaultDocument("certificate")) },
  { name: "default badge", document: DesignDocument.parse(defaultDocument("badge")) },
];

describe("starter designs", () => {
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
