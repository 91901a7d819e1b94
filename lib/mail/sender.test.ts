// The From and Reply-To headers as nodemailer writes them (its stream transport: the real MIME
// composer), with hostile display names: each header stays one header, the name decodes back whole.
import nodemailer from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import { describe, expect, it } from "vitest";
import { fromAddress, serviceSender } from "./sender";

async function headersOf(from: { name: string; address: string }, replyTo?: string) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await transport.sendMail({
    from,
    replyTo,
    to: "ada@example.com",
    subject: "S",
    text: "t",
    html: "<p>h</p>",
    messageId: "<m1@issuer.example>",
  });
  const head = (info.message as Buffer).toString("utf8").split(/\r?\n\r?\n/)[0]!;
  // Unfolded: a continuation line starts with white space.
  return head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/);
}

function decodeWords(value: string): string {
  return value.replace(/(\?=)\s+(=\?)/g, "$1$2").replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

describe("serviceSender", () => {
  it("splits MAIL_FROM into the service's name and address", () => {
    expect(serviceSender("Credentials <no-reply@localhost>", "https://x.example")).toEqual({
      name: "Credentials",
      address: "no-reply@localhost",
    });
    expect(serviceSender('"Acme Certs" <certs@acme.example>', "https://x.example")).toEqual({
      name: "Acme Certs",
      address: "certs@acme.example",
    });
  });

  it("calls the service by PUBLIC_URL's host when MAIL_FROM has no display name", () => {
    expect(serviceSender("no-reply@issuer.example", "https://issuer.example")).toEqual({
      name: "issuer.example",
      address: "no-reply@issuer.example",
    });
  });
});

describe("fromAddress", () => {
  const service = { name: "Credentials", address: "no-reply@issuer.example" };

  it('is "<name> via <service>" at the service\'s address', () => {
    expect(fromAddress("Acme Academy", service)).toEqual({ name: "Acme Academy via Credentials", address: "no-reply@issuer.example" });
  });

  it("is MAIL_FROM itself without a name (account emails)", () => {
    expect(fromAddress(null, service)).toEqual(service);
    expect(fromAddress(" \r\n ", service)).toEqual(service);
  });

  it.each([
    ['Evil" <attacker@evil.example>, "x'],
    ["Acme\r\nBcc: victim@example.com"],
    ["Acme\nSubject: pwned"],
    ["<script>alert(1)</script>"],
    ["=?UTF-8?B?PGF0dGFja2VyQGV2aWwuZXhhbXBsZT4=?="],
    ['Zoë & Søn; \\ "quoted" (comment)'],
  ])("a hostile name %j stays one display name in one From header", async (name) => {
    const headers = await headersOf(fromAddress(name, service), "contact@acme.example");
    const from = headers.filter((h) => /^from:/i.test(h));
    expect(from).toHaveLength(1);
    expect(headers.some((h) => /^(bcc|subject: pwned)/i.test(h))).toBe(false);
    expect(headers.filter((h) => /^subject:/i.test(h))).toEqual(["Subject: S"]);
    // The header names exactly one mailbox: ours.
    const parsed = addressparser(from[0]!.slice(5).trim(), { flatten: true });
    expect(parsed.map((a) => a.address)).toEqual(["no-reply@issuer.example"]);
    const single = name.replace(/\s+/g, " ").replace(/=\?/g, "= ?").trim();
    expect(decodeWords(parsed[0]!.name)).toBe(`${single} via Credentials`);
    expect(headers.filter((h) => /^reply-to:/i.test(h))).toEqual(["Reply-To: contact@acme.example"]);
  });
});
