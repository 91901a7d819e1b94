// The document a design starts from when it is created without one: a clean, centred layout that
// already shows the recipient, the credential and a QR code, so a fresh design previews as something.
import type { DesignDocumentInput, DesignType } from "../render/document";

export function defaultDocument(type: DesignType): DesignDocumentInput {
  if (type === "badge") {
    return {
      version: 1,
      canvas: { size: "square", orientation: "landscape" },
      background: { color: "#ffffff", image: null },
      elements: [
        { type: "rect", x: 40, y: 40, width: 520, height: 520, fill: "#1e3a8a", radius: 260 },
        { type: "rect", x: 70, y: 70, width: 460, height: 460, fill: null, stroke: "#fbbf24", strokeWidth: 6, radius: 230 },
        { type: "text", x: 110, y: 200, width: 380, height: 80, text: "[group.name]", font: { family: "Inter", weight: 700, size: 34, color: "#ffffff" }, align: "center", verticalAlign: "middle", maxLines: 2 },
        { type: "text", x: 110, y: 300, width: 380, height: 50, text: "[recipient.name]", font: { family: "Great Vibes", weight: 400, size: 40, color: "#fde68a" }, align: "center", verticalAlign: "middle" },
        { type: "text", x: 110, y: 370, width: 380, height: 30, text: "[credential.issueDate]", font: { family: "Inter", weight: 400, size: 16, color: "#dbeafe" }, align: "center" },
      ],
    };
  }
  return {
    version: 1,
    canvas: { size: "A4", orientation: "landscape" },
    background: { color: "#ffffff", image: null },
    elements: [
      { type: "border", inset: 24, thickness: 3, color: "#1f2937", style: "double" },
      { type: "text", x: 71, y: 90, width: 700, height: 40, text: "CERTIFICATE OF COMPLETION", font: { family: "Noto Serif", weight: 700, size: 30, color: "#1f2937", letterSpacing: 3 }, align: "center" },
      { type: "text", x: 71, y: 170, width: 700, height: 24, text: "This certifies that", font: { family: "Inter", weight: 400, size: 16, color: "#4b5563" }, align: "center" },
      { type: "text", x: 71, y: 205, width: 700, height: 70, text: "[recipient.name]", font: { family: "Great Vibes", weight: 400, size: 56, color: "#111827" }, align: "center", verticalAlign: "middle" },
      { type: "line", x1: 221, y1: 285, x2: 621, y2: 285, color: "#9ca3af", thickness: 1 },
      { type: "text", x: 71, y: 305, width: 700, height: 24, text: "has successfully completed", font: { family: "Inter", weight: 400, size: 16, color: "#4b5563" }, align: "center" },
      { type: "text", x: 71, y: 340, width: 700, height: 40, text: "[group.name]", font: { family: "Noto Serif", weight: 700, size: 26, color: "#111827" }, align: "center", maxLines: 2 },
      { type: "text", x: 90, y: 470, width: 300, height: 20, text: "Issued [credential.issueDate]", font: { family: "Inter", weight: 400, size: 12, color: "#4b5563" } },
      { type: "text", x: 90, y: 492, width: 300, height: 20, text: "[organization.name]", font: { family: "Inter", weight: 700, size: 12, color: "#111827" } },
      { type: "qr", x: 682, y: 440, size: 80, color: "#111827", background: "#ffffff" },
    ],
  };
}
