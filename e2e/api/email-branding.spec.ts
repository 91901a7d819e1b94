// The credential email as the organization's settings shape it (issue 19, "the email's sender and
// images"): a real SMTP sink receives what the app's own server sends. The organization's sender name
// (hostile: quotes and angle brackets), reply-to address, logo and brand colour are set through the
// operator CLI, which validates with the settings page's schema.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import addressparser from "nodemailer/lib/addressparser/index.js";
import { test, expect } from "../fixtures";
import { expectStatus, makePng } from "../support/api-helpers";
import { newDataDir, newGroup, startOwnServer, uniqueEmail, type Credential, type OwnServer } from "../support/credentials";
import { htmlText, sleep, SmtpSink, waitFor } from "../support/mail";
import { freePort } from "../support/servers";
import { createOrgs, runTsx } from "../support/state";

test.describe.configure({ timeout: 240_000 });

const HOSTILE_SENDER = `Acme "Registrar" <fake@evil.example>, x`;

test("a credential email: the organization's name via the service, its reply-to, Message-ID and Date, logo and certificate that load", async ({
  scratchDatabase,
  e2eState,
  playwright,
}, testInfo) => {
  const databaseUrl = await scratchDatabase();
  const dataDir = newDataDir(e2eState.runDir, "brand-mail");
  const [org] = await createOrgs({ databaseUrl, dataDir }, `brand-${randomBytes(3).toString("hex")}`, 0, 1);
  const cli = (args: string[]) => runTsx("scripts/cli.ts", args, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });

  // Bad input through the same schema: refused, each field named, nothing saved.
  const refused = await cli(["org", "branding", org!.slug, "--sender-name", "ok", "--brand-color", "blue", "--linkedin-id", "acme"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("--brand-color must be a hex colour like #1d4ed8.");
  expect(refused.stderr).toContain("--linkedin-id must be your LinkedIn company page's numeric id");

  const logoFile = testInfo.outputPath("logo.png");
  writeFileSync(logoFile, makePng(120, 40, [15, 118, 110, 255]));
  const logo = await cli(["org", "logo", org!.slug, logoFile]);
  expect(logo.code, logo.stderr).toBe(0);
  const set = await cli([
    "org",
    "branding",
    org!.slug,
    "--sender-name",
    HOSTILE_SENDER,
    "--contact-email",
    "registrar@acme.example",
    "--brand-color",
    "#0F766E",
  ]);
  expect(set.code, set.stderr).toBe(0);
  expect(JSON.parse(set.stdout.trim().split("\n").at(-1)!)).toEqual({
    senderName: HOSTILE_SENDER,
    contactEmail: "registrar@acme.example",
    brandColor: "#0f766e",
    linkedinOrganizationId: null,
  });

  const sink = new SmtpSink();
  await sink.start();
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  let server: OwnServer | undefined;
  try {
    server = await startOwnServer(
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        SMTP_URL: sink.url,
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        MAIL_FROM: "Credentials <no-reply@issuer.example>",
      },
      path.join(e2eState.runDir, `own-brand-mail-${randomBytes(2).toString("hex")}.log`),
    );
    const api = await playwright.request.newContext({
      baseURL: server.baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${org!.token}`, "Service-Version": "2022-10-26" },
    });
    const group = await newGroup(api, { name: `<script>alert(1)</script> & "Data"` });
    const email = uniqueEmail("brand");
    const recipientName = `Ada "><img src=x onerror=alert(1)>`;
    const made: Credential = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", { data: { groupId: group.id, recipient: { name: recipientName, email } } }),
      201,
    );

    await waitFor(`the email to ${email}`, () => sink.to(email).length > 0, 60_000);
    await sleep(1000);
    const received = sink.to(email);
    expect(received).toHaveLength(1);
    const { mail, mailFrom } = received[0]!;

    // From: the display name whole (quotes and brackets are part of the name), our address only.
    expect(mailFrom).toBe("no-reply@issuer.example");
    const fromLine = /^From:(.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)![1]!.replace(/\r?\n[ \t]+/g, " ");
    // Read as a mail client reads it: one mailbox, ours, whose display name is the whole sender name.
    expect(addressparser(fromLine, { flatten: true })).toEqual([
      { address: "no-reply@issuer.example", name: `${HOSTILE_SENDER} via Credentials` },
    ]);
    expect(mail.headers["reply-to"]).toBe("registrar@acme.example");
    expect(mail.headers["bcc"]).toBeUndefined();
    expect(mail.headers["list-unsubscribe"]).toBeUndefined();
    // Message-ID on the service's domain; a Date header of about now.
    expect(mail.messageId).toMatch(/^<[^<>@\s]+@127\.0\.0\.1>$/);
    expect(Math.abs(Date.parse(mail.headers["date"]!) - Date.now())).toBeLessThan(120_000);
    // Subject and bodies: the names as text.
    expect(mail.subject).toBe(`E2E ${org!.slug} issued you a credential: <script>alert(1)</script> & "Data"`);
    expect(mail.html).not.toMatch(/<script|<img src=x/);
    expect(htmlText(mail.html)).toContain(`Hello ${recipientName},`);
    expect(mail.text).toContain(`Hello ${recipientName},`);
    expect(mail.text).toContain(`${made.publicId}?recipient=true`);
    expect(mail.text).toContain("Reply to this email to reach");
    expect(mail.html).toContain("background:#0f766e");

    // The logo and the certificate: absolute URLs of this service, with alt text and a size, that answer 200.
    const images = [...mail.html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
    expect(images).toHaveLength(2);
    const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]?.replace(/&amp;/g, "&");
    const [logoTag, certificateTag] = images as [string, string];
    expect(attr(logoTag, "src")).toMatch(new RegExp(`^${publicUrl}/organizations/[^/]+/logo\\?v=\\d+$`));
    expect(attr(logoTag, "alt")).toBe(`E2E ${org!.slug}`);
    expect(attr(certificateTag, "src")).toMatch(new RegExp(`^${publicUrl}/previews/[0-9a-f]{40}\\.png$`));
    expect(attr(certificateTag, "alt")).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(Number(attr(certificateTag, "width"))).toBe(496);
    expect(Number(attr(certificateTag, "height"))).toBeGreaterThan(300);
    const designs: { previews: { format: string; url: string }[] }[] = await expectStatus(
      await api.get(`/v1/credentials/${made.id}/designs`),
      200,
    );
    expect(attr(certificateTag, "src")).toBe(designs[0]!.previews.find((p) => p.format === "png")!.url);
    const anonymous = await playwright.request.newContext();
    for (const [src, type] of [
      [attr(logoTag, "src")!, "image/png"],
      [attr(certificateTag, "src")!, "image/png"],
    ] as const) {
      const response = await anonymous.get(src);
      expect(response.status(), src).toBe(200);
      expect(response.headers()["content-type"]).toBe(type);
    }
    await anonymous.dispose();
    writeFileSync(testInfo.outputPath("received.html"), mail.html);
    await api.dispose();
  } finally {
    await server?.stop();
    await sink.stop();
  }
});
