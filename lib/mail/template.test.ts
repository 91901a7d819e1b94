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
