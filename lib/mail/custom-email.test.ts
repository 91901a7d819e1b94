// The issuer's own email text in the branded frame (lib/render/email-markup for the formatting set).
import { describe, expect, it } from "vitest";
import { renderEmail } from "./template";

const values = {
  "recipient.name": `Zoë <script>alert(1)</script> "quoted"`,
  "group.name": "Data & Analysis",
  "organization.name": "Demo <i>Academy</i>",
  "credential.url": "https://w.example/credentials/abc?recipient=true",
  "credential.id": "cred_1",
  "credential.issueDate": "2026-03-05",
  "custom.mentor": "<img src=x onerror=alert(1)>",
};
const branding = {
  brandColor: "#0F766E",
  logoUrl: "https://issuer.example/organizations/org_1/logo?v=1",
  certificateImage: { url: "https://issuer.example/previews/abc.png", width: 496, height: 351 },
  contactEmail: "registrar@acme.example",
};
const text =
  "Dear **[recipient.name]**,\n<script>alert('x')</script> you finished [group.name].\n\nYour mentor: [custom.mentor]. See [the syllabus](https://example.edu/s?a=1&b=2) or [write to us](mailto:hi@example.edu).";
const mail = renderEmail({ subject: "For [recipient.name]\n<b>now</b>", html: null, text }, values, branding, null);

describe("renderEmail: the issuer's text in the branded frame", () => {
  it("keeps the frame: logo, brand colour, certificate image, wallet button and small print", () => {
    expect(mail.html).toContain(`<img src="https://issuer.example/organizations/org_1/logo?v=1"`);
    expect(mail.html).toContain("border-top:6px solid #0f766e");
    expect(mail.html).toContain(`<img src="https://issuer.example/previews/abc.png" width="496" height="351"`);
    expect(mail.html).toContain(
      `<a href="https://w.example/credentials/abc?recipient=true" style="display:inline-block;background:#0f766e;color:#ffffff;`,
    );
    expect(mail.html).toContain(">View your credential</a>");
    expect(mail.html).toContain("Credential ID: cred_1");
    expect(mail.html).toContain("Questions? Reply to this email");
  });

  it("renders the formatting set: paragraphs, bold, links in the brand colour", () => {
    expect(mail.html).toContain(`<p dir="auto" style="margin:0 0 16px;font-size:16px;line-height:1.5">Dear <strong><bdi>Zoë`);
    expect(mail.html).toContain(`<a href="https://example.edu/s?a=1&amp;b=2" style="color:#0f766e">the syllabus</a>`);
    expect(mail.html).toContain(`<a href="mailto:hi@example.edu" style="color:#0f766e">write to us</a>`);
  });

  it("escapes the issuer's text and every value in the HTML", () => {
    expect(mail.html).not.toMatch(/<script|<img src=x|<i>Academy/);
    expect(mail.html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; you finished <bdi>Data &amp; Analysis</bdi>.");
    expect(mail.html).toContain("Zoë &lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot;");
    expect(mail.html).toContain("Your mentor: &lt;img src=x onerror=alert(1)&gt;.");
  });

  it("a subject is one line of text, values as they are", () => {
    expect(mail.subject).toBe(`For Zoë <script>alert(1)</script> "quoted" <b>now</b>`);
  });

  it("has a plain-text part with the same words, links written out, then the wallet link", () => {
    expect(mail.text).toBe(
      [
        `Dear Zoë <script>alert(1)</script> "quoted",`,
        "<script>alert('x')</script> you finished Data & Analysis.",
        "",
        "Your mentor: <img src=x onerror=alert(1)>. See the syllabus (https://example.edu/s?a=1&b=2) or write to us (hi@example.edu).",
        "",
        "View, download and share it here:",
        "https://w.example/credentials/abc?recipient=true",
        "",
        "Credential ID: cred_1",
        "Issued: March 5, 2026",
        "",
        "Questions? Reply to this email to reach Demo <i>Academy</i>.",
      ].join("\n"),
    );
  });

  it("a value can never add markup: a name holding ** or a link stays text", () => {
    const sneaky = renderEmail({ subject: "s", html: null, text: "Hi [recipient.name]" }, { "recipient.name": "**x** [a](javascript:y)" });
    expect(sneaky.html).toContain("Hi <bdi>**x** [a](javascript:y)</bdi>");
    expect(sneaky.html).not.toContain(`href="javascript`);
  });

  it("a wallet link whose value is not http(s) becomes '#', not a link that runs it", () => {
    const bad = renderEmail({ subject: "s", html: null, text: "[Open]([credential.url])" }, { "credential.url": "javascript:alert(1)" });
    expect(bad.html).toContain(`<a href="#" style="color:#1d4ed8">Open</a>`);
  });

  it("in the group's language: the frame's words translated, the page right to left for Arabic", () => {
    const ar = renderEmail({ subject: "s", html: null, text: "مرحبًا [recipient.name]" }, values, {}, "ar");
    expect(ar.html).toContain(`<html lang="ar" dir="rtl">`);
    expect(ar.html).toContain(`<p style="margin:0 0 24px;font-size:16px;line-height:1.5">مرحبًا <bdi>Zoë`);
    expect(ar.html).toContain(">عرض شهادتك</a>");
  });

  it("the issuer's own HTML (the API's html) is still used as written, with its text as written", () => {
    const own = renderEmail({ subject: "s", html: "<p>[recipient.name]</p>", text: "**raw** text" }, values, branding);
    expect(own.html).toBe("<p>Zoë &lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot;</p>");
    expect(own.text).toBe("**raw** text");
  });
});
