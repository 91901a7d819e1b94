// Rules that tie a design document to the stored design it belongs to: its type (a badge is square, a
// certificate is paper) and the images uploaded with it. The document model itself is the renderer's
// (lib/render/document.ts); these checks need what only a design knows, so they live here.
import type { DesignDocument, DesignType } from "../render/document";

/** Rules that tie a document to its design's type and assets, checked where both are known. */
export function documentProblems(
  doc: DesignDocument,
  type: DesignType,
  assetNames: ReadonlySet<string>,
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (type === "badge" && doc.canvas.size !== "square") {
    problems.push({ path: ["canvas", "size"], message: "a badge's canvas must be square" });
  }
  if (type === "certificate" && doc.canvas.size === "square") {
    problems.push({ path: ["canvas", "size"], message: "a certificate's canvas must be A4 or Letter" });
  }
  if (doc.background.image && !assetNames.has(doc.background.image.asset)) {
    problems.push({ path: ["background", "image", "asset"], message: `no asset named "${doc.background.image.asset}"` });
  }
  doc.elements.forEach((el, i) => {
    if (el.type === "image" && !assetNames.has(el.asset)) {
      problems.push({ path: ["elements", i, "asset"], message: `no asset named "${el.asset}"` });
    }
  });
  return problems;
}
