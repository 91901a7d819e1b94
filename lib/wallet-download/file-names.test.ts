import { describe, expect, it } from "vitest";
import { credentialFolder, designFileBases, fileNameSlug } from "./file-names";

describe("fileNameSlug", () => {
  it.each([
    ["Web Accessibility 101", "web-accessibility-101"],
    ["  Ünïcödé   Académie ", "ünïcödé-académie"],
    ["東京大学 修了証", "東京大学-修了証"],
    ["../../etc/passwd", "etc-passwd"],
    ["report.pdf.exe", "report-pdf-exe"],
    ["invoice\u202Egnp.exe", "invoice-gnp-exe"],
    ["C:\\Windows\\evil", "c-windows-evil"],
    ["\u0000\u0007", "fallback"],
    ["...", "fallback"],
    ["", "fallback"],
  ])("%j → %j", (text, slug) => {
    expect(fileNameSlug(text, "fallback")).toBe(slug);
  });

  it("is at most 40 characters and never splits a surrogate pair or ends in a hyphen", () => {
    expect(fileNameSlug("a".repeat(100), "x")).toHaveLength(40);
    const emoji = fileNameSlug("𝒜".repeat(50), "x");
    expect([...emoji]).toHaveLength(40);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(fileNameSlug(`${"a".repeat(39)} b`, "x")).toBe("a".repeat(39));
  });
});

describe("archive names", () => {
  it("name each credential's folder by issuer, title and publicId", () => {
    const publicId = "0b7c1e9a-3a4f-4c1e-9d7e-2f1a5b6c7d8e";
    expect(credentialFolder({ publicId, title: "Course / 2025", organizationName: "Acme Academy" })).toBe(
      `acme-academy-course-2025-${publicId}`,
    );
  });

  it("name one design after the title, several after title and design, never twice the same", () => {
    expect(designFileBases("Course", [{ id: "a", name: "Certificate" }])).toEqual(new Map([["a", "course"]]));
    const several = designFileBases("Course", [
      { id: "a", name: "Certificate" },
      { id: "b", name: "certificate" },
      { id: "c", name: "Badge" },
    ]);
    expect([...several.values()]).toEqual(["course-certificate", "course-certificate-2", "course-badge"]);
  });
});
