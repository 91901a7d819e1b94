import { describe, expect, it } from "vitest";
import { linkedInAddToProfileUrl } from "./share-links";

const base = {
  name: "Data & Analysis",
  organizationName: "Acme \"Academy\" <Ltd>",
  issueDate: "2026-03-05",
  expiryDate: "2028-11-30",
  url: "https://w.example/credentials/abc",
  credentialId: "cred_1",
};

const params = (href: string) => {
  const url = new URL(href);
  expect(url.origin + url.pathname).toBe("https://www.linkedin.com/profile/add");
  return url.searchParams;
};

describe("linkedInAddToProfileUrl", () => {
  it("names the organization when it has no LinkedIn company page id", () => {
    for (const organizationId of [undefined, null, ""]) {
      const p = params(linkedInAddToProfileUrl({ ...base, organizationId }));
      expect(p.get("organizationName")).toBe("Acme \"Academy\" <Ltd>");
      expect(p.has("organizationId")).toBe(false);
    }
  });

  it("carries the company page id instead of the name when it is set", () => {
    const p = params(linkedInAddToProfileUrl({ ...base, organizationId: "1337" }));
    expect(p.get("organizationId")).toBe("1337");
    expect(p.has("organizationName")).toBe(false);
    expect(Object.fromEntries(p)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: "Data & Analysis",
      organizationId: "1337",
      issueYear: "2026",
      issueMonth: "3",
      certUrl: "https://w.example/credentials/abc",
      certId: "cred_1",
      expirationYear: "2028",
      expirationMonth: "11",
    });
  });
});
