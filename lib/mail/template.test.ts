import { describe, expect, it } from "vitest";
import { htmlForPlainText, renderEmail } from "./template";

const values = {
  "recipient.name": "Zoë <script>alert(1)</script>",
  "group.name": "Data & Analysis",
  "organization.name": "Demo Academy",
  "credential.url": "https://w.example/credentials/abc?recipient=true",
  "credential.id": "cred_1",
  "credential.issueDate": "2026-03-05",
};

describe("renderEmail", () => {
  it("fills the built-in template when the group has none", () => {
    const mail = renderEmail({ subject: null, html: null, text: null }, values);
    expect(mail.subject).toBe("Demo Academy issued you a credential: Data & Analysis");
    expect(mail.text).toContain("https://w.example/credentials/abc?recipient=true");
    expect(mail.text).toContain("Issued: March 5, 2026");
    expect(mail.text).not.toMatch(/\[[a-z]+\.[a-zA-Z]+\]/);
  });

  it("escapes values in the HTML body only", () => {
    const mail = renderEmail({ subject: null, html: null, text: null }, values);
    expect(mail.html).toContain("Zoë &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain('href="https://w.example/credentials/abc?recipient=true"');
    expect(mail.text).toContain("Zoë <script>alert(1)</script>");
  });

  it("uses the group's fields and falls back per field", () => {
    const mail = renderEmail({ subject: "Well done, [recipient.name]!\n", html: null, text: "Hi [recipient.name] [custom.unknown]: [credential.url]" }, values);
    expect(mail.subject).toBe("Well done, Zoë <script>alert(1)</script>!");
    expect(mail.text).toBe("Hi Zoë <script>alert(1)</script> : https://w.example/credentials/abc?recipient=true");
    expect(mail.html).toContain("View your credential");
  });
});

describe("renderEmail: placeholders in URL attributes", () => {
  const template = (html: string) => ({ subject: "s", html, text: null });

  it("keeps http(s) and mailto URLs that placeholders fill in, escaped once", () => {
    const mail = renderEmail(template(`<a href="[custom.link]">x</a> <a href='mailto:[custom.mail]'>m</a> <img src=[custom.img]>`), {
      "custom.link": "https://example.edu/course?a=1&b=2",
      "custom.mail": "registrar@example.edu",
      "custom.img": "https://example.edu/logo.png",
    });
    expect(mail.html).toContain(`<a href="https://example.edu/course?a=1&amp;b=2">x</a>`);
    expect(mail.html).toContain(`<a href="mailto:registrar@example.edu">m</a>`);
    expect(mail.html).toContain(`<img src="https://example.edu/logo.png">`);
  });

  it.each([
    ["javascript:alert(1)"],
    ["  JavaScript:alert(1)"],
    ["java\tscript:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["vbscript:msgbox"],
    ["/relative/path"],
    ["\" onmouseover=\"alert(1)"],
  ])("turns a value of %j into a dead link", (value) => {
    const mail = renderEmail(template(`<a href="[custom.link]">x</a>`), { "custom.link": value });
    expect(mail.html).toBe(`<a href="#">x</a>`);
  });

  it("leaves URL attributes without placeholders and placeholders outside attributes alone", () => {
    const mail = renderEmail(template(`<a href="https://example.edu">[custom.link]</a>`), { "custom.link": "javascript:x" });
    expect(mail.html).toBe(`<a href="https://example.edu">javascript:x</a>`);
  });
});

describe("htmlForPlainText", () => {
  it("keeps the issuer's words, escaped, with the wallet link as a button or a link", () => {
    const html = htmlForPlainText("Hello [recipient.name] <3,\nwell done.\n\n[credential.url]\n\nOr: [credential.url]");
    const rendered = renderEmail({ subject: "s", html, text: null }, { "recipient.name": "Ada & Co", "credential.url": "https://w.example/c/1" });
    expect(rendered.html).toContain("Hello Ada &amp; Co &lt;3,<br>well done.");
    expect(rendered.html).toContain(`<a href="https://w.example/c/1" style="display:inline-block`);
    expect(rendered.html).toContain(`Or: <a href="https://w.example/c/1" style="color:#1d4ed8">https://w.example/c/1</a>`);
  });
});

describe("renderEmail: the built-in email with the organization's branding", () => {
  const hostile = {
    "recipient.name": `Ada "><img src=x onerror=alert(1)>\r\nBcc: x@evil.example`,
    "group.name": "<script>alert(1)</script> & Co",
    "organization.name": `Acme "><img onerror=alert(2)> [recipient.name]`,
    "credential.url": "https://w.example/credentials/abc?recipient=true",
    "credential.id": "cred_1",
    "credential.issueDate": "2026-03-05",
  };
  const branding = {
    brandColor: "#0F766E",
    logoUrl: "https://issuer.example/organizations/org_1/logo?v=1&x=2",
    certificateImage: { url: "https://issuer.example/previews/abc.png", width: 496, height: 351 },
    contactEmail: "registrar@acme.example",
  };
  const mail = renderEmail({ subject: null, html: null, text: null }, hostile, branding);
  const imgTags = [...mail.html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);

  it("renders every name as text: no markup of theirs in the HTML, one line in the subject", () => {
    expect(mail.html).not.toMatch(/<script|<img src=x|onerror=alert\(2\)>/);
    expect(imgTags).toHaveLength(2);
    for (const tag of imgTags) expect(tag).not.toContain("onerror=alert(1)>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
    expect(mail.html).toContain("Acme &quot;&gt;&lt;img onerror=alert(2)&gt; [recipient.name]");
    expect(mail.subject).toBe(`Acme "><img onerror=alert(2)> [recipient.name] issued you a credential: <script>alert(1)</script> & Co`);
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it("shows the logo and the certificate image, absolute, with alt text and a size", () => {
    const [logo, certificate] = imgTags as [string, string];
    expect(logo).toContain(`src="https://issuer.example/organizations/org_1/logo?v=1&amp;x=2"`);
    expect(logo).toContain(`alt="Acme &quot;&gt;&lt;img onerror=alert(2)&gt; [recipient.name]"`);
    expect(logo).toContain(`height="48"`);
    expect(certificate).toContain(`src="https://issuer.example/previews/abc.png"`);
    expect(certificate).toContain(`width="496" height="351"`);
    expect(certificate).toMatch(/alt="Your credential “&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; Co”, issued to Ada &quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;\s+Bcc: x@evil.example by Acme/);
  });

  it("uses the brand colour for the button and the accents, with readable button text", () => {
    expect(mail.html).toContain("background:#0f766e;color:#ffffff");
    expect(mail.html).toContain("border-top:6px solid #0f766e");
    expect(mail.html).not.toContain("#1d4ed8");
    const light = renderEmail({ subject: null, html: null, text: null }, hostile, { brandColor: "#fde047" });
    expect(light.html).toContain("background:#fde047;color:#111827");
  });

  it("falls back to the service's colour for a missing or malformed one, and leaves images out without URLs", () => {
    for (const brandColor of [null, "red", "#12345", "#0f766e;background:url(x)"]) {
      const plain = renderEmail({ subject: null, html: null, text: null }, hostile, { brandColor });
      expect(plain.html).toContain("background:#1d4ed8;color:#ffffff");
      expect(plain.html).not.toContain("url(x)");
      expect(plain.html).not.toContain("<img");
    }
  });

  it("has a plain-text part with the same content, the link and who to reply to", () => {
    // A line break in a name becomes a space (attribute values are one line where a name goes).
    expect(mail.text).toContain(`Hello Ada "><img src=x onerror=alert(1)> Bcc: x@evil.example,`);
    expect(mail.text).toContain(`has issued you the credential “<script>alert(1)</script> & Co”.`);
    expect(mail.text).toContain("https://w.example/credentials/abc?recipient=true");
    expect(mail.text).toContain("Issued: March 5, 2026");
    expect(mail.text).toMatch(/Questions\? Reply to this email to reach Acme/);
    expect(mail.html).toContain("Questions? Reply to this email to reach Acme");
    expect(renderEmail({ subject: null, html: null, text: null }, hostile).text).not.toContain("Reply to this email");
  });

  it("leaves a group's own HTML as the issuer wrote it", () => {
    const own = renderEmail({ subject: null, html: "<p>[recipient.name]</p>", text: null }, hostile, branding);
    expect(own.html).toBe(`<p>Ada &quot;&gt;&lt;img src=x onerror=alert(1)&gt; Bcc: x@evil.example</p>`);
  });
});
