import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES, type Locale } from "../i18n/locales";
import { renderEmail } from "./template";

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
    const mail = renderEmail(
      { subject: "Well done, [recipient.name]!\n", html: null, text: "Hi [recipient.name] [custom.unknown]: [credential.url]" },
      values,
    );
    expect(mail.subject).toBe("Well done, Zoë <script>alert(1)</script>!");
    // The issuer's text first, then the frame's wallet link and small print.
    expect(mail.text.split("\n")[0]).toBe("Hi Zoë <script>alert(1)</script> : https://w.example/credentials/abc?recipient=true");
    expect(mail.text).toContain("View, download and share it here:\nhttps://w.example/credentials/abc?recipient=true");
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
    ['" onmouseover="alert(1)'],
  ])("turns a value of %j into a dead link", (value) => {
    const mail = renderEmail(template(`<a href="[custom.link]">x</a>`), { "custom.link": value });
    expect(mail.html).toBe(`<a href="#">x</a>`);
  });

  it("leaves URL attributes without placeholders and placeholders outside attributes alone", () => {
    const mail = renderEmail(template(`<a href="https://example.edu">[custom.link]</a>`), { "custom.link": "javascript:x" });
    expect(mail.html).toBe(`<a href="https://example.edu">javascript:x</a>`);
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
    expect(certificate).toMatch(
      /alt="Your credential “&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; Co”, issued to Ada &quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;\s+Bcc: x@evil.example by Acme/,
    );
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
    expect(mail.html).toContain("Questions? Reply to this email to reach <bdi>Acme");
    expect(renderEmail({ subject: null, html: null, text: null }, hostile).text).not.toContain("Reply to this email");
  });

  it("leaves a group's own HTML as the issuer wrote it", () => {
    const own = renderEmail({ subject: null, html: "<p>[recipient.name]</p>", text: null }, hostile, branding);
    expect(own.html).toBe(`<p>Ada &quot;&gt;&lt;img src=x onerror=alert(1)&gt; Bcc: x@evil.example</p>`);
  });
});

describe("renderEmail: the built-in email in the group's language", () => {
  const hostile = {
    "recipient.name": `Ada "><img src=x onerror=alert(1)>`,
    "group.name": "<script>alert(1)</script> & Co",
    "organization.name": `Acme "><img onerror=alert(2)> [recipient.name]\r\nBcc: x@evil.example`,
    "credential.url": "https://w.example/credentials/abc?recipient=true",
    "credential.id": "cred_1",
    "credential.issueDate": "2026-03-05",
  };
  const branding = {
    brandColor: "#0F766E",
    logoUrl: "https://issuer.example/logo.png",
    certificateImage: { url: "https://issuer.example/previews/abc.png", width: 496, height: 351 },
    contactEmail: "registrar@acme.example",
  };
  // Words of each language's own sentences (not looked up in the catalogs, so a catalog that lost its
  // translation fails here), and the issue date as that language writes it.
  const expected: Record<Locale, { subject: RegExp; button: string; date: string }> = {
    en: { subject: / issued you a credential: /, button: "View your credential", date: "March 5, 2026" },
    es: { subject: / le ha otorgado una credencial: /, button: "Ver su credencial", date: "5 de marzo de 2026" },
    fr: { subject: / vous a délivré une attestation\u00a0: /, button: "Voir votre attestation", date: "5 mars 2026" },
    de: { subject: / hat Ihnen einen Nachweis ausgestellt: /, button: "Nachweis ansehen", date: "5. März 2026" },
    "pt-BR": { subject: / emitiu uma credencial para você: /, button: "Ver sua credencial", date: "5 de março de 2026" },
    ar: { subject: /^أصدرت لك Acme .* شهادة: /, button: "عرض شهادتك", date: "مارس" },
    "zh-Hans": { subject: / 向您颁发了证书：/, button: "查看您的证书", date: "2026年3月5日" },
    hi: { subject: / ने आपको प्रमाणपत्र जारी किया है: /, button: "अपना प्रमाणपत्र देखें", date: "5 मार्च 2026" },
  };
  const hostileSubjectParts = [`Acme "><img onerror=alert(2)> [recipient.name] Bcc: x@evil.example`, "<script>alert(1)</script> & Co"];

  it.each(SUPPORTED_LOCALES)("%s: subject, HTML and text in the language, names as text, dates in its style", (locale) => {
    const mail = renderEmail({ subject: null, html: null, text: null }, hostile, branding, locale);
    const want = expected[locale];
    // Subject: one line, the sentence of the language, the names verbatim (it is not HTML).
    expect(mail.subject).toMatch(want.subject);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    for (const part of hostileSubjectParts) expect(mail.subject).toContain(part);
    // HTML: the language and its direction, the button in it, no markup of theirs, names escaped.
    expect(mail.html).toContain(`<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">`);
    expect(mail.html).toContain(`>${want.button}</a>`);
    expect(mail.html).not.toMatch(/<script|<img src=x|<img onerror/);
    expect([...mail.html.matchAll(/<img\b/g)]).toHaveLength(2);
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
    expect(mail.html).toContain(`alt="Acme &quot;&gt;&lt;img onerror=alert(2)&gt; [recipient.name] Bcc: x@evil.example"`);
    expect(mail.html).toContain(want.date);
    expect(mail.text).toContain(want.date);
    expect(mail.text).toContain("https://w.example/credentials/abc?recipient=true");
    // Only the values' own placeholder text is left, nothing of the template's.
    expect(mail.html.replaceAll("[recipient.name]", "")).not.toMatch(/\[[a-z]+\.[a-zA-Z]+\]/);
    expect(mail.text.replaceAll("[recipient.name]", "")).not.toMatch(/\[[a-z]+\.[a-zA-Z]+\]/);
    if (locale !== "en") {
      // Nothing of the English email is left over.
      for (const english of ["Hello", "has issued you", "Credential ID", "Issued", "Questions?", "View your", "Or open this link"]) {
        expect(mail.text).not.toContain(english);
        expect(mail.html).not.toContain(english);
      }
    }
  });

  it("Arabic: right to left from <html> to the card, names isolated, the link kept left to right", () => {
    const mail = renderEmail({ subject: null, html: null, text: null }, hostile, branding, "ar");
    expect(mail.html).toContain(`<html lang="ar" dir="rtl">`);
    expect(mail.html).toContain(`<body dir="rtl"`);
    expect(mail.html).toContain(`<td align="right">`);
    expect(mail.html).toContain(`لقد حصلت على «<bdi>&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</bdi>»`);
    expect(mail.html).toContain(`<a href="https://w.example/credentials/abc?recipient=true" dir="ltr"`);
    expect(mail.subject).toBe(
      `أصدرت لك Acme "><img onerror=alert(2)> [recipient.name] Bcc: x@evil.example شهادة: <script>alert(1)</script> & Co`,
    );
    expect(mail.text.split("\n")[0]).toBe(`مرحبًا Ada "><img src=x onerror=alert(1)>،`);
  });

  it("no language: English, with dates as before", () => {
    const none = renderEmail({ subject: null, html: null, text: null }, hostile, branding, null);
    expect(none).toEqual(renderEmail({ subject: null, html: null, text: null }, hostile, branding, "en"));
    expect(none).toEqual(renderEmail({ subject: null, html: null, text: null }, hostile, branding));
    expect(none.text).toContain("Issued: March 5, 2026");
  });

  it("a group's own subject and text are not translated; their dates follow the group's language", () => {
    const own = {
      subject: "Zertifikat vom [credential.issueDate]",
      html: null,
      text: "Ausgestellt am [credential.issueDate] für [recipient.name]",
    };
    const german = renderEmail(own, hostile, {}, "de");
    expect(german.subject).toBe("Zertifikat vom 5. März 2026");
    expect(german.text.split("\n")[0]).toBe(`Ausgestellt am 5. März 2026 für Ada "><img src=x onerror=alert(1)>`);
    // The issuer's text sits in the built-in frame, whose button speaks German.
    expect(german.html).toContain(">Nachweis ansehen</a>");
    expect(german.html).toContain("Ausgestellt am 5. März 2026 für <bdi>Ada &quot;&gt;&lt;img");
    expect(renderEmail(own, hostile, {}, null).subject).toBe("Zertifikat vom March 5, 2026");
  });
});
