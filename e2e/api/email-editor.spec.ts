// A group's own email text (docs/api.md, "Email text and its formatting"): saved only when every link
// is http(s) or mailto and every placeholder known, refused with the field named and nothing written
// otherwise; and sent inside the branded frame (certificate image, wallet button, small print) with a
// plain-text part that writes the links out. The emails are read from the project server's .eml files.
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, expectError, expectStatus, listAll, type Group } from "../support/api-helpers";
import { newGroup, uniqueEmail } from "../support/credentials";
import { emlFilesContaining, htmlText, waitFor } from "../support/mail";

test.describe.configure({ timeout: 60_000 });

const GOOD = {
  subject: "Well done, [recipient.name]",
  text: "Dear **[recipient.name]**,\n<script>alert(1)</script> you finished [group.name].\n\nGrade: [custom.grade]. Read [the syllabus](https://example.edu/s?a=1&b=2) or [write to us](mailto:registrar@example.edu).",
};

type GroupWithEmail = Group & { emailTemplate: { subject: string; html: string | null; text: string | null } | null };

async function groupNamed(api: APIRequestContext, name: string): Promise<GroupWithEmail[]> {
  return (await listAll<GroupWithEmail>(api, "/v1/groups")).filter((g) => g.name === name);
}

test("good email text is saved as written, on create and on update", async ({ api }) => {
  const group = (await newGroup(api, { emailTemplate: GOOD })) as GroupWithEmail;
  expect(group.emailTemplate).toEqual({ ...GOOD, html: null });
  const text = "Hello [recipient.name]\n\n[Open it]([credential.url]) · [site](http://example.com/?id=[credential.id])";
  const updated = (await expectStatus(
    await api.patch(`/v1/groups/${group.id}`, { data: { emailTemplate: { subject: "Hi", text } } }),
    200,
  )) as GroupWithEmail;
  expect(updated.emailTemplate).toEqual({ subject: "Hi", text, html: null });
});

const BAD: { name: string; emailTemplate: Record<string, unknown>; path: string; message: RegExp }[] = [
  {
    name: "a javascript: link",
    emailTemplate: { subject: "Hi", text: "Hello\n\n[click](javascript:alert`1`)" },
    path: "emailTemplate.text",
    message: /line 3: the link address "javascript:alert`1`" is refused: links must start with http:\/\/, https:\/\/ or mailto:/,
  },
  {
    name: "a data: link",
    emailTemplate: { subject: "Hi", text: "[x](data:text/html,hi)" },
    path: "emailTemplate.text",
    message: /refused/,
  },
  {
    name: "a link whose whole address is a custom value",
    emailTemplate: { subject: "Hi", text: "[x]([custom.link])" },
    path: "emailTemplate.text",
    message: /only \[credential\.url\] may be a whole address/,
  },
  {
    name: "an unknown placeholder in the text",
    emailTemplate: { subject: "Hi", text: "Dear [recipient.nmae]" },
    path: "emailTemplate.text",
    message: /unknown placeholder \[recipient\.nmae\]/,
  },
  {
    name: "an unknown placeholder in the subject",
    emailTemplate: { subject: "For [recipient.fullname]", text: null },
    path: "emailTemplate.subject",
    message: /unknown placeholder \[recipient\.fullname\]/,
  },
  {
    name: "bold left open",
    emailTemplate: { subject: "Hi", text: "**Well done" },
    path: "emailTemplate.text",
    message: /line 1: bold text opened with \*\* is not closed/,
  },
  {
    name: "text that is too long",
    emailTemplate: { subject: "Hi", text: "a".repeat(20_001) },
    path: "emailTemplate.text",
    message: /at most 20000 characters/,
  },
  {
    name: "the issuer's own HTML linking to javascript:",
    emailTemplate: { subject: "Hi", html: `<a href="javascript:alert(1)">x</a>`, text: null },
    path: "emailTemplate.html",
    message: /href: the link address "javascript:alert\(1\)" is refused/,
  },
];

for (const bad of BAD) {
  test(`refused with the field named and nothing written: ${bad.name}`, async ({ api }) => {
    const design = await createDesign(api, "certificate");
    const name = `Refused ${bad.name} ${Date.now()}`;
    const created = await api.post("/v1/groups", { data: { name, designIds: [design.id], emailTemplate: bad.emailTemplate } });
    const body = await expectError(created, 400, "validation_error", { paths: [bad.path] });
    expect(body.error.details!.find((d) => d.path === bad.path)!.message).toMatch(bad.message);
    expect(await groupNamed(api, name)).toEqual([]);

    const group = (await newGroup(api, { name, emailTemplate: GOOD })) as GroupWithEmail;
    const patched = await api.patch(`/v1/groups/${group.id}`, { data: { name: `${name} renamed`, emailTemplate: bad.emailTemplate } });
    await expectError(patched, 400, "validation_error", { paths: [bad.path] });
    const after = (await expectStatus(await api.get(`/v1/groups/${group.id}`), 200)) as GroupWithEmail;
    expect(after.name).toBe(name);
    expect(after.emailTemplate).toEqual({ ...GOOD, html: null });
  });
}

test("a sent credential's email has the branded frame and the issuer's text, and a plain-text part", async ({ api, server }) => {
  const group = await newGroup(api, { name: "Data <b>Analysis</b>", emailTemplate: GOOD });
  const email = uniqueEmail("framed");
  const made = (await expectStatus(
    await api.post("/v1/credentials/create-issue-send", {
      data: {
        groupId: group.id,
        recipient: { name: `Ada "<img src=x onerror=alert(1)>"`, email },
        customAttributes: { "custom.grade": "<i>A+</i> & more" },
      },
    }),
    201,
  )) as { publicId: string };
  const files = await waitFor(`an .eml for ${email}`, () => {
    const found = emlFilesContaining(path.join(server.dataDir, "mail"), email);
    return found.length ? found : undefined;
  });
  const { mail } = files[0]!;
  const wallet = `/credentials/${made.publicId}?recipient=true`;

  expect(mail.subject).toBe(`Well done, Ada "<img src=x onerror=alert(1)>"`);
  // The frame: brand colour bar, certificate image linked to the wallet, the button, the small print.
  expect(mail.html).toContain("border-top:6px solid #");
  expect(mail.html).toMatch(/<a href="https?:\/\/[^"]+\/credentials\/[^"]+"><img src="https?:\/\/[^"]+\/previews\/[0-9a-f]+\.png"/);
  expect(mail.html).toMatch(new RegExp(`<a href="[^"]+${wallet.replace(/[?]/g, "\\?")}" style="display:inline-block;background:#`));
  expect(htmlText(mail.html)).toContain("View your credential");
  expect(htmlText(mail.html)).toContain("Credential ID:");
  // The issuer's text, formatted, with every value and their own "<script>" as text.
  expect(mail.html).toContain(`Dear <strong><bdi>Ada &quot;&lt;img src=x onerror=alert(1)&gt;&quot;</bdi></strong>,<br>`);
  expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; you finished <bdi>Data &lt;b&gt;Analysis&lt;/b&gt;</bdi>.");
  expect(mail.html).toContain("Grade: &lt;i&gt;A+&lt;/i&gt; &amp; more.");
  expect(mail.html).toContain(`<a href="https://example.edu/s?a=1&amp;b=2" style="color:#`);
  expect(mail.html).toContain(`<a href="mailto:registrar@example.edu" style="color:#`);
  expect(mail.html).not.toMatch(/<script|<img src=x|<i>A\+/);
  // The plain-text part: the same words, links written out, then the wallet link.
  expect(mail.text).toContain(`Dear Ada "<img src=x onerror=alert(1)>",\n<script>alert(1)</script> you finished Data <b>Analysis</b>.`);
  expect(mail.text).toContain(
    "Grade: <i>A+</i> & more. Read the syllabus (https://example.edu/s?a=1&b=2) or write to us (registrar@example.edu).",
  );
  expect(mail.text).toMatch(new RegExp(`^https?://\\S+${wallet.replace(/[?]/g, "\\?")}$`, "m"));
  expect(mail.text).not.toContain("**");
});
