import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileTransport, textEncodingFor } from "./transport";

/** The body parts of a written .eml (multipart/alternative): their headers and bodies. */
function parts(eml: string): { headers: string; body: string }[] {
  const boundary = /boundary="([^"]+)"/.exec(eml)![1]!;
  return eml
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [headers, ...body] = part.trim().split(/\r?\n\r?\n/);
      return { headers: headers!, body: body.join("\n") };
    });
}

async function send(text: string, html: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "mail-transport-"));
  const file = await fileTransport(dir).deliver({
    from: "Academy <noreply@example.com>",
    to: "ada@example.com",
    subject: "Your certificate",
    html,
    text,
    messageId: "<t1@localhost>",
  });
  return readFileSync(file, "utf8");
}

describe("the body parts' transfer encoding", () => {
  it("is quoted-printable for mostly-ASCII text, base64 when most of it is outside ASCII", () => {
    expect(textEncodingFor("Hello Ada, your certificate is ready: https://example.com/c/1")).toBe("quoted-printable");
    expect(textEncodingFor("Zoë Ångström-Núñez, félicitations !")).toBe("quoted-printable");
    expect(textEncodingFor("مرحبا محمد، شهادتك جاهزة")).toBe("base64");
    expect(textEncodingFor("您的证书已经准备好了")).toBe("base64");
    expect(textEncodingFor("")).toBe("quoted-printable");
  });

  it("writes both parts in it, and they read back as written", async () => {
    const latin = await send("Hello Zoë, your certificate is ready.", "<p>Hello Zoë, your <b>certificate</b> is ready.</p>");
    for (const part of parts(latin)) expect(part.headers).toContain("Content-Transfer-Encoding: quoted-printable");
    expect(latin).toContain("Hello Zo=C3=AB, your certificate is ready.");

    const text = "مرحبا محمد، شهادتك جاهزة";
    const arabic = await send(text, `<p dir="rtl">${text}</p>`);
    const [plain, html] = parts(arabic);
    expect(plain!.headers).toContain("Content-Transfer-Encoding: base64");
    expect(html!.headers).toContain("Content-Transfer-Encoding: base64");
    expect(Buffer.from(plain!.body.replace(/\s+/g, ""), "base64").toString("utf8")).toBe(text);
  });
});
