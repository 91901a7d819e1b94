import { describe, expect, it } from "vitest";
import { embedSnippet, linkedInAddToProfileUrl } from "./share-links";

const base = {
  name: "Data & Analysis",
  organizationName: 'Acme "Academy" <Ltd>',
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
      expect(p.get("organizationName")).toBe('Acme "Academy" <Ltd>');
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

describe("embedSnippet", () => {
  it("escapes hostile names and URLs: the snippet parses to one link holding one image, the text intact", () => {
    const alt = `Evil "><script>alert(1)</script> & 'co' <img src=x onerror=alert(2)>`;
    const snippet = embedSnippet({
      url: "https://w.example/credentials/1?a=1&b=2",
      imageUrl: "https://w.example/previews/d.png?w=800",
      imageWidth: 800,
      imageHeight: 566,
      alt,
    });
    expect(snippet).not.toMatch(/<script|<img src=x|onerror=alert\(2\)>/);
    expect(snippet).toBe(
      `<a href="https://w.example/credentials/1?a=1&amp;b=2" target="_blank" rel="noopener"><img src="https://w.example/previews/d.png?w=800" width="800" height="566" alt="Evil &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;co&#39; &lt;img src=x onerror=alert(2)&gt;" style="max-width:100%;height:auto"></a>`,
    );
    // Exactly two tags open: the link and the image.
    expect(snippet.match(/</g)).toHaveLength(3);
  });
});
