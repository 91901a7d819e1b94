// Email delivery (docs/api.md, Credentials: `send` and `create-issue-send`; issue 3 "Real parts in the tests"):
// a real SMTP server runs in the test process and the app delivers to it. The SMTP tests run app
// servers on databases and DATA_DIRs of their own, so that only that server's mail worker sees the
// outbox; the `.eml` tests use the project's server (no SMTP_URL).
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { APIRequestContext, TestInfo } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import {
  addDays,
  createCredential,
  issue,
  newDataDir,
  newGroup,
  startOwnServer,
  todayUtc,
  uniqueEmail,
  type Credential,
  type OwnServer,
} from "../support/credentials";
import { emlFilesContaining, htmlText, sleep, SmtpSink, waitFor, type Received } from "../support/mail";
import { freePort } from "../support/servers";
import { createDatabase, dropDatabase } from "../support/databases";
import { createOrgs, type E2EState, type Org } from "../support/state";

// Many requests per test, and servers that share the machine with other runs: more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

const PUBLIC_URL = "https://issuer.example.test";
const PLACEHOLDER_LEFT = /\[(recipient|group|organization|credential|custom)\.[^\]\s]*\]/;

type World = { databaseUrl: string; dataDir: string; org: Org; orgName: string };

/** A database and DATA_DIR of the test's own, with one organization in it. */
async function ownWorld(scratchDatabase: () => Promise<string>, e2eState: E2EState, label: string): Promise<World> {
  const databaseUrl = await scratchDatabase();
  const dataDir = newDataDir(e2eState.runDir, label);
  const [org] = await createOrgs({ databaseUrl, dataDir }, `${label}-${randomBytes(3).toString("hex")}`, 0, 1);
  // support/create-orgs.ts names organizations "E2E <slug>".
  return { databaseUrl, dataDir, org: org!, orgName: `E2E ${org!.slug}` };
}

function mailEnv(world: World, smtpUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: world.databaseUrl,
    DATA_DIR: world.dataDir,
    SMTP_URL: smtpUrl,
    MAIL_RETRY_BASE_SECONDS: "1",
    PUBLIC_URL,
    ...extra,
  };
}

function walletLink(c: Credential, base = PUBLIC_URL): string {
  return `${base}/credentials/${c.publicId}?recipient=true`;
}

async function cis(api: APIRequestContext, body: Record<string, unknown>): Promise<Credential> {
  return expectStatus(await api.post("/v1/credentials/create-issue-send", { data: body }), 201);
}

async function sendEmail(api: APIRequestContext, id: string): Promise<Credential> {
  return expectStatus(await api.post(`/v1/credentials/${id}/send`, { data: { deliveryMethod: "email" } }), 200);
}

/** Waits until `count` messages went to `address`, then a little longer to see that no more come. */
async function deliveredTo(sink: SmtpSink, address: string, count = 1, quietMs = 1500, timeoutMs = 30_000): Promise<Received[]> {
  await waitFor(`${count} message(s) to ${address}`, () => sink.to(address).length >= count, timeoutMs);
  await sleep(quietMs);
  const got = sink.to(address);
  expect(got.length, `messages to ${address}`).toBe(count);
  return got;
}

function expectNoPlaceholders(r: Received) {
  for (const [part, value] of [
    ["subject", r.mail.subject],
    ["text", r.mail.text],
    ["html", r.mail.html],
  ] as const) {
    expect(value, `${part} still has a placeholder`).not.toMatch(PLACEHOLDER_LEFT);
  }
}

async function attachLogs(testInfo: TestInfo, servers: { logFile?: string; output: () => string }[]) {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const [i, s] of servers.entries()) await testInfo.attach(`own-server-${i}.log`, { body: s.output(), contentType: "text/plain" });
}

/**
 * One app server (own database and DATA_DIR) and one SMTP sink for the happy-path tests below, which
 * run in order in one worker: a server start is the expensive part. The sink refuses DATA with 451
 * twice for `retry-` addresses and accepts everything else. Tests tell their mail apart by address.
 */
type Shared = { world: World; sink: SmtpSink; server: OwnServer; walletUrl: string };
const WALLET_URL = "https://wallet.example.test";

test.describe("email over SMTP", () => {
  test.describe.configure({ mode: "default" });
  let shared: Shared | undefined;
  let databaseUrl: string | undefined;
  let sink: SmtpSink | undefined;
  let server: OwnServer | undefined;

  test.beforeAll(async ({ backend, e2eState }, workerInfo) => {
    test.setTimeout(240_000);
    databaseUrl = await createDatabase(backend, path.join(e2eState.runDir, backend), `${e2eState.runId}_mail`);
    const dataDir = newDataDir(e2eState.runDir, "mail-shared");
    const [org] = await createOrgs({ databaseUrl, dataDir }, `mail-${randomBytes(3).toString("hex")}`, 0, 1);
    const world: World = { databaseUrl, dataDir, org: org!, orgName: `E2E ${org!.slug}` };
    sink = new SmtpSink({ data: (_id, attempt, rcptTo) => (rcptTo.some((a) => a.startsWith("retry-")) && attempt <= 2 ? 451 : null) });
    await sink.start();
    // WALLET_URL with a trailing slash: the wallet links use it (without the slash), not PUBLIC_URL.
    const env = mailEnv(world, sink.url, { WALLET_URL: `${WALLET_URL}/` });
    server = await startOwnServer(
      env,
      path.join(e2eState.runDir, `own-mail-shared-${backend}-${workerInfo.workerIndex}-${randomBytes(2).toString("hex")}.log`),
    );
    shared = { world, sink, server, walletUrl: WALLET_URL };
  });

  test.afterAll(async () => {
    await server?.stop();
    await sink?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl).catch(() => undefined);
    shared = server = sink = databaseUrl = undefined;
  });

  test.afterEach(async ({}, testInfo) => {
    if (shared) await attachLogs(testInfo, [shared.server]);
  });

  async function sharedApi(client: (o: { baseURL: string; token: string }) => Promise<APIRequestContext>) {
    if (!shared) throw new Error("the shared mail server did not start");
    return { ...shared, api: await client({ baseURL: shared.server.baseURL, token: shared.world.org.token }) };
  }

  test("send: one message to the recipient; subject and bodies from the group's template, placeholders filled, wallet link", async ({
    client,
  }) => {
    const { api, sink, world, walletUrl } = await sharedApi(client);
    const group = await newGroup(api, {
      name: "Data Analysis",
      emailTemplate: {
        subject: "[recipient.name], your [group.name] from [organization.name]",
        text: "Dear [recipient.name],\nCourse: [custom.course]\nIssued: [credential.issueDate]\nOpen: [credential.url]\nMissing:[custom.missing]|",
        html: '<h1>[group.name]</h1><p>Dear [recipient.name], course: <span id="course">[custom.course]</span></p><a href="[credential.url]">Open</a>',
      },
    });
    expect(group.emailTemplate).toEqual(
      expect.objectContaining({ subject: "[recipient.name], your [group.name] from [organization.name]" }),
    );
    const email = uniqueEmail("ada");
    const draft = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Ada Lovelace", email },
      customAttributes: { "custom.course": `<b>Engines</b> & "Notes"`, "custom.missing": null },
    });
    const issued = await issue(api, draft.id);
    await sleep(1200);
    expect(sink.to(email), "nothing is sent before send").toEqual([]);
    const sent = await sendEmail(api, draft.id);
    expect(sent.status).toBe("issued");

    const [r] = await deliveredTo(sink, email);
    expect(r!.rcptTo).toEqual([email]);
    expect(r!.mail.to).toContain(email);
    expect(r!.mail.subject).toBe(`Ada Lovelace, your Data Analysis from ${world.orgName}`);
    expect(r!.mail.messageId).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
    expectNoPlaceholders(r!);
    // Text body: values as they are.
    expect(r!.mail.text).toContain("Dear Ada Lovelace,");
    expect(r!.mail.text).toContain(`Course: <b>Engines</b> & "Notes"`);
    expect(r!.mail.text).toContain(`Open: ${walletLink(issued, walletUrl)}`);
    expect(r!.mail.text).not.toContain(PUBLIC_URL);
    expect(r!.mail.text).toContain("Missing:|");
    expect(r!.mail.text).toMatch(new RegExp(`Issued: .*${todayUtc().slice(0, 4)}`));
    // HTML body: the same values, escaped, and the link.
    expect(r!.mail.html).toContain(`href="${walletLink(issued, walletUrl)}"`);
    expect(r!.mail.html).not.toContain("<b>Engines</b>");
    expect(htmlText(r!.mail.html)).toContain(`course: <b>Engines</b> & "Notes"`);
    expect(htmlText(r!.mail.html)).toContain("Data Analysis");
  });

  test("create-issue-send: one message each; the default template when the group has none; none without email or when scheduled", async ({
    client,
  }) => {
    const { api, sink, walletUrl } = await sharedApi(client);
    const group = await newGroup(api, { name: "Advanced Astronomy" });
    expect(group.emailTemplate ?? null).toBeNull();
    const seen = sink.received.length;

    const noEmail = await cis(api, { groupId: group.id, recipient: { name: "No Address" } });
    expect(noEmail.status).toBe("issued");
    const later = uniqueEmail("later");
    const scheduled = await cis(api, { groupId: group.id, recipient: { name: "Later", email: later }, issueDate: addDays(todayUtc(), 5) });
    expect(scheduled.status).toBe("scheduled");

    const email = uniqueEmail("grace");
    const c = await cis(api, { groupId: group.id, recipient: { name: "Grace Hopper", email } });
    const [r] = await deliveredTo(sink, email);
    expect(r!.rcptTo).toEqual([email]);
    expect(r!.mail.subject).toContain("Advanced Astronomy");
    expect(r!.mail.text).toContain(walletLink(c, walletUrl));
    expect(r!.mail.text).toContain("Grace Hopper");
    expect(r!.mail.html).toContain(walletLink(c, walletUrl));
    expect(htmlText(r!.mail.html)).toContain("Grace Hopper");
    expectNoPlaceholders(r!);
    // Nothing else went out: not for the credential without email, not (yet) for the scheduled one.
    expect(sink.received.slice(seen).map((m) => m.rcptTo)).toEqual([[email]]);
    expect(sink.to(later)).toEqual([]);

    // A name is one line (a line break is refused); a multi-line attribute in the subject cannot add
    // headers or recipients either.
    const evil = uniqueEmail("evil");
    const injection = "Evil\r\nBcc: victim@example.com\r\nX-Injected: yes";
    await expectError(
      await api.post("/v1/credentials/create-issue-send", { data: { groupId: group.id, recipient: { name: injection, email: evil } } }),
      400,
      "validation_error",
      {
        paths: ["recipient.name"],
      },
    );
    const subjectGroup = await newGroup(api, { emailTemplate: { subject: "For [custom.line]" } });
    await cis(api, { groupId: subjectGroup.id, recipient: { name: "Evil", email: evil }, customAttributes: { "custom.line": injection } });
    const [e] = await deliveredTo(sink, evil);
    expect(e!.mail.subject).toBe("For Evil Bcc: victim@example.com X-Injected: yes");
    expect(e!.rcptTo).toEqual([evil]);
    expect(sink.to("victim@example.com")).toEqual([]);
    expect(e!.mail.headers["bcc"]).toBeUndefined();
    expect(e!.mail.headers["x-injected"]).toBeUndefined();
  });

  test("every send queues one more message (own Message-ID), to the recipient's current address", async ({ client }) => {
    const { api, sink, walletUrl } = await sharedApi(client);
    const group = await newGroup(api, { emailTemplate: { subject: "For [recipient.name]" } });
    const email = uniqueEmail("twice");
    const c = await cis(api, { groupId: group.id, recipient: { name: "Twice", email } });
    await deliveredTo(sink, email, 1, 0);
    await sendEmail(api, c.id);
    const both = await deliveredTo(sink, email, 2);
    expect(both[0]!.mail.messageId).not.toBe(both[1]!.mail.messageId);
    // A template with a subject only: the bodies fall back to the built-in ones, with the link.
    expect(both[1]!.mail.subject).toBe("For Twice");
    expect(both[1]!.mail.text).toContain(walletLink(c, walletUrl));

    const moved = uniqueEmail("moved");
    await expectStatus(
      await api.patch(`/v1/credentials/${c.id}`, { data: { recipient: { id: c.recipient!.id, name: "Moved", email: moved } } }),
      200,
    );
    await sendEmail(api, c.id);
    const [r] = await deliveredTo(sink, moved);
    expect(r!.mail.subject).toBe("For Moved");
    expect(sink.to(email).length).toBe(2);
  });

  test("a burst of 40 create-issue-send: each message delivered exactly once", async ({ client }) => {
    test.setTimeout(90_000);
    const { api, sink, walletUrl } = await sharedApi(client);
    const group = await newGroup(api);
    const emails = Array.from({ length: 40 }, (_, i) => uniqueEmail(`b${i}`));
    const made = await Promise.all(emails.map((email, i) => cis(api, { groupId: group.id, recipient: { name: `Burst ${i}`, email } })));
    await waitFor("40 messages", () => emails.every((e) => sink.to(e).length > 0), 60_000);
    await sleep(2000);
    for (const [i, email] of emails.entries()) {
      const got = sink.to(email);
      expect(got.length, email).toBe(1);
      expect(got[0]!.mail.text).toContain(walletLink(made[i]!, walletUrl));
    }
    expect(new Set(emails.map((e) => sink.to(e)[0]!.mail.messageId)).size).toBe(40);
  });

  test("temporary failures (451) are retried with growing delays, every attempt with the same Message-ID; delivered once", async ({
    client,
  }) => {
    test.setTimeout(90_000);
    const { api, sink } = await sharedApi(client);
    const group = await newGroup(api);
    const email = uniqueEmail("retry");
    await cis(api, { groupId: group.id, recipient: { name: "Retry", email } });
    await deliveredTo(sink, email, 1, 2500, 60_000);
    const attempts = sink.dataAttempts.filter((a) => a.rcptTo.includes(email));
    expect(attempts.map((a) => a.accepted)).toEqual([false, false, true]);
    expect(new Set(attempts.map((a) => a.messageId)).size).toBe(1);
    expect(attempts[0]!.messageId).toMatch(/^<.+>$/);
    const gap1 = attempts[1]!.at - attempts[0]!.at;
    const gap2 = attempts[2]!.at - attempts[1]!.at;
    expect(gap1, "first retry waits about MAIL_RETRY_BASE_SECONDS").toBeGreaterThanOrEqual(900);
    expect(gap2, "the wait doubles").toBeGreaterThanOrEqual(1900);
  });
});

test.describe("email: permanent failure", () => {
  test("550 on every RCPT: a permanent refusal, one attempt, no delivery, no retries; other mail still goes", async ({
    scratchDatabase,
    e2eState,
    startServer,
    client,
  }) => {
    test.setTimeout(120_000);
    const sink = new SmtpSink({ rcpt: (address) => (address.startsWith("bounce-") ? 550 : null) });
    await sink.start();
    try {
      const world = await ownWorld(scratchDatabase, e2eState, "mail-550");
      const app = await startServer(mailEnv(world, sink.url));
      const api = await client({ baseURL: app.baseURL, token: world.org.token });
      const group = await newGroup(api);
      const bounce = uniqueEmail("bounce");
      const c = await cis(api, { groupId: group.id, recipient: { name: "Bounce", email: bounce } });
      expect(c.status).toBe("issued");
      const tries = () => sink.rcptAttempts.filter((a) => a.address === bounce).length;
      await waitFor("an RCPT attempt", () => tries() >= 1, 30_000);
      // A retry of a temporary failure would come about 1 s later (then 2 s, 4 s): wait well past that.
      await sleep(5000);
      expect(tries()).toBe(1);
      expect(sink.to(bounce)).toEqual([]);
      // The worker is not stuck on it.
      const good = uniqueEmail("good");
      await cis(api, { groupId: group.id, recipient: { name: "Good", email: good } });
      await deliveredTo(sink, good);
      expect(tries()).toBe(1);
    } finally {
      await sink.stop();
    }
  });
});

test.describe("email across a crash", () => {
  test("queued while SMTP is down, app SIGKILLed, SMTP up, app restarted: each message delivered exactly once", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.setTimeout(240_000);
    const world = await ownWorld(scratchDatabase, e2eState, "mail-crash");
    const port = await freePort(); // nothing listens there yet: SMTP is down
    // Retries 5 s apart: the kill below lands between attempts, not on one in flight (whose lease
    // would hold the row for a minute after the restart).
    const env = mailEnv(world, `smtp://127.0.0.1:${port}`, { MAIL_RETRY_BASE_SECONDS: "5" });
    const servers: OwnServer[] = [];
    const sink = new SmtpSink();
    try {
      const first = await startOwnServer(env, path.join(e2eState.runDir, `own-crash-${testInfo.testId}-${testInfo.project.name}-1.log`));
      servers.push(first);
      const api = await client({ baseURL: first.baseURL, token: world.org.token });
      const group = await newGroup(api, { emailTemplate: { subject: "Crash test for [recipient.name]" } });
      const emails = Array.from({ length: 4 }, (_, i) => uniqueEmail(`crash${i}`));
      const made: Credential[] = [];
      for (const [i, email] of emails.slice(0, 3).entries())
        made.push(await cis(api, { groupId: group.id, recipient: { name: `Crash ${i}`, email } }));
      const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Crash 3", email: emails[3]! } });
      await issue(api, draft.id);
      made.push(await sendEmail(api, draft.id));
      await sleep(2500); // the worker tries (connection refused) and schedules retries
      await first.kill();

      await sink.start(port);
      const second = await startOwnServer(env, path.join(e2eState.runDir, `own-crash-${testInfo.testId}-${testInfo.project.name}-2.log`));
      servers.push(second);
      // A row whose lease was held at the kill waits for the lease to run out (the app uses 60 s).
      await waitFor("4 messages after the restart", () => sink.received.length >= 4, 150_000, 200);
      await sleep(3000);
      expect(sink.received.length).toBe(4);
      for (const [i, email] of emails.entries()) {
        const got = sink.to(email);
        expect(got.length, email).toBe(1);
        expect(got[0]!.mail.subject).toBe(`Crash test for Crash ${i}`);
        expect(got[0]!.mail.text).toContain(walletLink(made[i]!));
      }
      expect(new Set(sink.received.map((r) => r.mail.messageId)).size).toBe(4);
    } finally {
      await attachLogs(testInfo, servers);
      for (const s of servers) await s.kill();
      await sink.stop();
    }
  });

  test("refused with 451 before a SIGKILL, accepted after the restart: delivered once, with the Message-ID of the earlier attempts", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.setTimeout(240_000);
    const world = await ownWorld(scratchDatabase, e2eState, "mail-crash451");
    let refusing = true;
    const sink = new SmtpSink({ data: () => (refusing ? 451 : null) });
    await sink.start();
    const env = mailEnv(world, sink.url, { MAIL_RETRY_BASE_SECONDS: "5" });
    const servers: OwnServer[] = [];
    try {
      const first = await startOwnServer(env, path.join(e2eState.runDir, `own-451-${testInfo.testId}-${testInfo.project.name}-1.log`));
      servers.push(first);
      const api = await client({ baseURL: first.baseURL, token: world.org.token });
      const group = await newGroup(api);
      const emails = [uniqueEmail("r0"), uniqueEmail("r1")];
      for (const [i, email] of emails.entries()) await cis(api, { groupId: group.id, recipient: { name: `Refused ${i}`, email } });
      await waitFor("a refused attempt for each", () => emails.every((e) => sink.dataAttempts.some((a) => a.rcptTo.includes(e))), 30_000);
      await sleep(1500); // the failures are recorded; the next attempts are 5 s away
      await first.kill();
      const before = new Map(emails.map((e) => [e, sink.dataAttempts.find((a) => a.rcptTo.includes(e))!.messageId]));

      refusing = false;
      const second = await startOwnServer(env, path.join(e2eState.runDir, `own-451-${testInfo.testId}-${testInfo.project.name}-2.log`));
      servers.push(second);
      await waitFor("both messages after the restart", () => sink.received.length >= 2, 150_000, 200);
      await sleep(3000);
      expect(sink.received.length).toBe(2);
      for (const email of emails) {
        const got = sink.to(email);
        expect(got.length, email).toBe(1);
        expect(got[0]!.mail.messageId, `Message-ID of ${email}`).toBe(before.get(email));
        const tried = sink.dataAttempts.filter((a) => a.rcptTo.includes(email));
        expect(new Set(tried.map((a) => a.messageId)).size, `one Message-ID over every attempt to ${email}`).toBe(1);
      }
    } finally {
      await attachLogs(testInfo, servers);
      for (const s of servers) await s.kill();
      await sink.stop();
    }
  });
});

test.describe("email without SMTP_URL", () => {
  test("send and create-issue-send write one .eml each under DATA_DIR/mail, with the wallet link", async ({ api, server }) => {
    const group = await newGroup(api, {
      name: "Eml Course",
      emailTemplate: { subject: "[group.name] for [recipient.name]", text: "Link: [credential.url]" },
    });
    const mailDir = path.join(server.dataDir, "mail");
    const a = uniqueEmail("eml-send");
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Eml Sender", email: a } });
    const issued = await issue(api, draft.id);
    await sendEmail(api, draft.id);
    const b = uniqueEmail("eml-cis");
    const made = await cis(api, { groupId: group.id, recipient: { name: "Eml Cis", email: b } });

    for (const [email, c, name] of [
      [a, issued, "Eml Sender"],
      [b, made, "Eml Cis"],
    ] as const) {
      const files = await waitFor(`an .eml for ${email}`, () => {
        const found = emlFilesContaining(mailDir, email);
        return found.length ? found : undefined;
      });
      await sleep(1500);
      expect(emlFilesContaining(mailDir, email).length, email).toBe(1);
      const { mail } = files[0]!;
      expect(mail.to).toContain(email);
      expect(mail.subject).toBe(`Eml Course for ${name}`);
      expect(mail.messageId).toMatch(/^<.+>$/);
      const link = new RegExp(`^Link: https?://[^/\\s]+/credentials/${c.publicId}\\?recipient=true$`, "m");
      expect(mail.text).toMatch(link);
      expect(mail.html).toContain(`/credentials/${c.publicId}?recipient=true`);
    }
  });

  test("the built-in email speaks the group's language: Spanish, Arabic right to left; no language is English", async ({ api, server }) => {
    const mailDir = path.join(server.dataDir, "mail");
    const name = `<b>Análisis</b> & "Datos"`;
    const today = new Date(`${todayUtc()}T00:00:00Z`);
    const dateIn = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(today);
    const cases = [
      {
        language: "es",
        subject: / le ha otorgado una credencial: /,
        html: ["Ver su credencial", "Hola, ", dateIn("es")],
        htmlTag: `<html lang="es" dir="ltr">`,
      },
      {
        language: "ar",
        subject: /^أصدرت لك .* شهادة: /,
        html: ["عرض شهادتك", "مرحبًا", dateIn("ar")],
        htmlTag: `<html lang="ar" dir="rtl">`,
      },
      {
        language: null,
        subject: / issued you a credential: /,
        html: ["View your credential", "Hello ", dateIn("en-US")],
        htmlTag: `<html lang="en" dir="ltr">`,
      },
    ];
    for (const c of cases) {
      const group = await newGroup(api, { name, language: c.language });
      const email = uniqueEmail(`lang-${c.language ?? "none"}`);
      const made = await cis(api, { groupId: group.id, recipient: { name: "Ana <i>Pérez</i>", email } });
      const files = await waitFor(`an .eml for ${email}`, () => {
        const found = emlFilesContaining(mailDir, email);
        return found.length ? found : undefined;
      });
      const { mail } = files[0]!;
      expect(mail.subject).toMatch(c.subject);
      // Names are text: verbatim in the subject and the text part, escaped in the HTML.
      expect(mail.subject).toContain(name);
      expect(mail.text).toContain("Ana <i>Pérez</i>");
      expect(mail.html).not.toContain("<b>Análisis");
      expect(mail.html).not.toContain("<i>Pérez");
      expect(htmlText(mail.html)).toContain(name);
      expect(mail.html).toContain(c.htmlTag);
      for (const words of c.html) expect(htmlText(mail.html)).toContain(words);
      expect(mail.text).toContain(c.html[2]!);
      expect(mail.text).toContain(`/credentials/${made.publicId}?recipient=true`);
      if (c.language !== null)
        for (const english of ["Hello", "View your credential", "Credential ID"]) expect(mail.text + mail.html).not.toContain(english);
    }
  });

  test("a scheduled create-issue-send whose issue date is moved to today is issued and sends its email at once", async ({
    api,
    server,
  }) => {
    const mailDir = path.join(server.dataDir, "mail");
    const group = await newGroup(api);
    const email = uniqueEmail("eml-sched");
    const c = await cis(api, { groupId: group.id, recipient: { name: "Scheduled", email }, issueDate: addDays(todayUtc(), 3) });
    expect(c.status).toBe("scheduled");
    // A plain issue of a future draft asks for no email.
    const quiet = uniqueEmail("eml-quiet");
    const draft = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Quiet", email: quiet },
      issueDate: addDays(todayUtc(), 3),
    });
    expect((await issue(api, draft.id)).status).toBe("scheduled");
    await sleep(1500);
    expect(emlFilesContaining(mailDir, email)).toEqual([]);

    for (const id of [c.id, draft.id]) {
      const moved: Credential = await expectStatus(await api.patch(`/v1/credentials/${id}`, { data: { issueDate: todayUtc() } }), 200);
      expect(moved.status).toBe("issued");
    }
    // Moving the date issues it at once, so the email goes out without waiting for the scheduler's round.
    const files = await waitFor(
      `an .eml for ${email}`,
      () => {
        const found = emlFilesContaining(mailDir, email);
        return found.length ? found : undefined;
      },
      20_000,
      250,
    );
    await sleep(2000);
    expect(emlFilesContaining(mailDir, email).length).toBe(1);
    expect(files[0]!.mail.text).toContain(`/credentials/${c.publicId}?recipient=true`);
    expect(emlFilesContaining(mailDir, quiet)).toEqual([]);
  });

  test("send to a draft or without recipient email → 409 and no .eml", async ({ api, server }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("eml-409");
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft", email } });
    await expectError(await api.post(`/v1/credentials/${draft.id}/send`, { data: { deliveryMethod: "email" } }), 409, "conflict");
    const noEmail = await issue(api, (await createCredential(api, { groupId: group.id, recipient: { name: "No Email" } })).id);
    await expectError(await api.post(`/v1/credentials/${noEmail.id}/send`, { data: { deliveryMethod: "email" } }), 409, "conflict");
    const marker = uniqueEmail("eml-marker");
    await cis(api, { groupId: group.id, recipient: { name: "Marker", email: marker } });
    const mailDir = path.join(server.dataDir, "mail");
    await waitFor("the marker .eml", () => emlFilesContaining(mailDir, marker).length > 0);
    expect(emlFilesContaining(mailDir, email)).toEqual([]);
  });
});
