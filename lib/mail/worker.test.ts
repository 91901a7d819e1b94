import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

const dir = await scratchDatabase("mail-worker", {
  MAIL_MAX_ATTEMPTS: "3",
  MAIL_RETRY_BASE_SECONDS: "10",
  MAIL_ATTEMPT_TIMEOUT_SECONDS: "0.3",
});

const { db } = await import("../db");
const { cancelQueuedEmails, enqueueEmail, MAX_REPEAT_DELAY_MS, REPEAT_WINDOW_MS } = await import("./outbox");
const { deliverDueEmails, mailDelivery, retryDelayMs } = await import("./worker");
const { fileTransport } = await import("./transport");

async function queue(to: string): Promise<string> {
  return db().$transaction((tx) =>
    enqueueEmail(tx, {
      organizationId: "org_t",
      credentialId: null,
      to,
      template: { subject: "Hi [recipient.name]", html: null, text: null },
      values: { "recipient.name": "Ada" },
    }),
  );
}

beforeAll(async () => {
  await db().organization.create({ data: { id: "org_t", slug: "t", name: "T" } });
  await db().group.create({ data: { id: "grp_t", organizationId: "org_t", name: "G" } });
  await db().credential.create({
    data: {
      id: "cred_hold",
      publicId: "pub_hold",
      organizationId: "org_t",
      groupId: "grp_t",
      recipientName: "Ada",
      status: "issued",
      issueDate: "2026-01-01",
    },
  });
  await db().credential.create({
    data: {
      id: "cred_repeat",
      publicId: "pub_repeat",
      organizationId: "org_t",
      groupId: "grp_t",
      recipientName: "Ada",
      status: "issued",
      issueDate: "2026-01-01",
    },
  });
});

describe("the mail worker", () => {
  it("backs off exponentially, up to an hour", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30) / 1000)).toEqual([30, 60, 120, 240]);
    expect(retryDelayMs(20, 30)).toBe(3_600_000);
  });

  it("delivers a queued email once and records the attempt", async () => {
    const id = await queue("a@example.com");
    const delivered: string[] = [];
    const transport = { deliver: async (m: { to: string; messageId: string }) => (delivered.push(`${m.to} ${m.messageId}`), "test") };
    expect(await deliverDueEmails(transport)).toBe(1);
    expect(await deliverDueEmails(transport)).toBe(0);
    expect(delivered).toEqual([`a@example.com <${id}@localhost>`]);
    const row = await db().emailOutbox.findUniqueOrThrow({ where: { id }, include: { deliveryAttempts: true } });
    expect(row).toMatchObject({ status: "sent", attempts: 1, leaseUntil: null });
    expect(row.deliveryAttempts.map((a) => a.outcome)).toEqual(["sent"]);
  });

  it("an email whose row cannot be composed is not handed to the relay: a failed attempt, retried later", async () => {
    const id = await queue("broken-composition@example.com");
    await db().emailOutbox.update({ where: { id }, data: { composition: "{not json" } });
    const delivered: string[] = [];
    expect(await deliverDueEmails({ deliver: async (m: { to: string }) => (delivered.push(m.to), "test") })).toBe(1);
    expect(delivered).toEqual([]);
    const row = await db().emailOutbox.findUniqueOrThrow({ where: { id }, include: { deliveryAttempts: true } });
    expect(row).toMatchObject({ status: "queued", attempts: 1, lastError: "the email could not be composed" });
    expect(row.deliveryAttempts.map((a) => a.outcome)).toEqual(["failed"]);
    await db().emailOutbox.update({ where: { id }, data: { status: "cancelled" } }); // out of the next tests' way
  });

  it("retries failures later with the same Message-ID, then gives up and stays visible as failed", async () => {
    const id = await queue("b@example.com");
    const seen: string[] = [];
    const failing = {
      deliver: async (m: { messageId: string }) => {
        seen.push(m.messageId);
        throw Object.assign(new Error("nope"), { code: "ECONNREFUSED" });
      },
    };
    let now = new Date();
    expect(await deliverDueEmails(failing, now)).toBe(1);
    expect(await deliverDueEmails(failing, now)).toBe(0); // not due again yet
    const afterFirst = await db().emailOutbox.findUniqueOrThrow({ where: { id } });
    expect(afterFirst).toMatchObject({ status: "queued", attempts: 1, lastError: "ECONNREFUSED" });
    expect(afterFirst.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime() + 9_000);
    for (let i = 0; i < 2; i++) {
      now = new Date(now.getTime() + 3_600_000);
      expect(await deliverDueEmails(failing, now)).toBe(1);
    }
    now = new Date(now.getTime() + 3_600_000);
    expect(await deliverDueEmails(failing, now)).toBe(0);
    const final = await db().emailOutbox.findUniqueOrThrow({ where: { id }, include: { deliveryAttempts: true } });
    expect(final).toMatchObject({ status: "failed", attempts: 3 });
    expect(final.deliveryAttempts).toHaveLength(3);
    expect(new Set(seen)).toEqual(new Set([`<${id}@localhost>`]));
  });

  it("does not deliver a row another worker holds a lease on", async () => {
    const id = await queue("c@example.com");
    await db().emailOutbox.update({ where: { id }, data: { leaseUntil: new Date(Date.now() + 60_000), leaseOwner: "other" } });
    expect(await deliverDueEmails({ deliver: async () => "x" })).toBe(0);
    // An expired lease (a worker that died) is claimed again.
    expect(await deliverDueEmails({ deliver: async () => "x" }, new Date(Date.now() + 120_000))).toBe(1);
    expect((await db().emailOutbox.findUniqueOrThrow({ where: { id } })).status).toBe("sent");
  });

  it("records each outcome when its delivery ends: a slow one does not hold back the others", async () => {
    const slow = await queue("slow@example.com");
    const fast = await queue("fast@example.com");
    let release!: (via: string) => void;
    const transport = {
      deliver: (m: { to: string }) => (m.to === "slow@example.com" ? new Promise<string>((r) => (release = r)) : Promise.resolve("test")),
    };
    const delivery = mailDelivery(transport);
    expect(await delivery.claim()).toBe(2);
    for (let i = 0; i < 100 && (await db().emailOutbox.findUniqueOrThrow({ where: { id: fast } })).status !== "sent"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await db().emailOutbox.findUniqueOrThrow({ where: { id: fast } })).status).toBe("sent");
    expect(await db().emailOutbox.findUniqueOrThrow({ where: { id: slow } })).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: null,
    });
    release("test");
    await delivery.settled();
    expect((await db().emailOutbox.findUniqueOrThrow({ where: { id: slow } })).status).toBe("sent");
  });

  it("ends an attempt the transport never settles at the attempt timeout: recorded as failed, retried later, within its lease", async () => {
    const id = await queue("d@example.com");
    let leaseUntil: Date | null = null;
    const hanging = {
      deliver: async () => {
        leaseUntil = (await db().emailOutbox.findUniqueOrThrow({ where: { id } })).leaseUntil;
        return new Promise<string>(() => {});
      },
    };
    const started = Date.now();
    expect(await deliverDueEmails(hanging)).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const row = await db().emailOutbox.findUniqueOrThrow({ where: { id }, include: { deliveryAttempts: true } });
    expect(row).toMatchObject({ status: "queued", attempts: 1, leaseUntil: null, lastError: "ETIMEDOUT no outcome within 0.3 s" });
    expect(row.deliveryAttempts.map((a) => a.outcome)).toEqual(["failed"]);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(started + 9_000);
    // The lease held during the attempt outlasts its deadline by the time allowed to record it.
    expect(leaseUntil!.getTime()).toBeGreaterThanOrEqual(started + 300 + 40_000);
  });

  it("writes .eml files named by Message-ID when no SMTP server is configured", async () => {
    const transport = fileTransport(path.join(dir, "mail"));
    const file = await transport.deliver({
      messageId: "<m1@localhost>",
      from: "a@b.c",
      to: "d@e.f",
      subject: "S",
      html: "<p>x</p>",
      text: "x",
    });
    expect(path.basename(file)).toBe("m1@localhost.eml");
  });
});

describe("rows claimed ahead of a free connection", () => {
  it("start as the connection frees; those held past an attempt's deadline go back to the queue unattempted", async () => {
    const ids = [await queue("held-1@example.com"), await queue("held-2@example.com"), await queue("held-3@example.com")];
    // One connection whose deliveries hang until their deadline (0.3 s): the first claimed row takes the
    // connection, and the rows held behind it wait at least that long, twice the longest a row may be
    // held (half a deadline). (Rows other tests left due may be claimed too; only these are checked.)
    const attemptedAddresses: string[] = [];
    const hanging = {
      connections: 1,
      deliver: (m: { to: string }) => {
        attemptedAddresses.push(m.to);
        return new Promise<string>(() => undefined);
      },
    };
    await deliverDueEmails(hanging, new Date(Date.now() + 60_000));
    expect(attemptedAddresses).toHaveLength(1);
    const rows = await db().emailOutbox.findMany({ where: { id: { in: ids } } });
    const givenBack = rows.filter((r) => !attemptedAddresses.includes(r.toAddress));
    expect(givenBack.length).toBeGreaterThanOrEqual(2);
    for (const r of givenBack) expect(r).toMatchObject({ status: "queued", attempts: 0, leaseUntil: null, leaseOwner: null });
    // Due again at once: the next pass delivers them.
    const sent: string[] = [];
    const ok = { connections: 1, deliver: async (m: { to: string }) => (sent.push(m.to), "test") };
    await deliverDueEmails(ok, new Date(Date.now() + 60_000));
    expect(sent).toEqual(expect.arrayContaining(givenBack.map((r) => r.toAddress)));
  });
});

describe("an email cancelled while its row waits for a connection", () => {
  it("is not sent, stays cancelled and has no attempt", async () => {
    const first = await queue("blocker@example.com");
    const held = await db().$transaction((tx) =>
      enqueueEmail(tx, {
        organizationId: "org_t",
        credentialId: "cred_hold",
        to: "revoked@example.com",
        template: { subject: "Hi", html: null, text: null },
        values: {},
      }),
    );
    const delivered: string[] = [];
    let blocking!: () => void;
    const firstStarted = new Promise<void>((started) => {
      blocking = started;
    });
    let unblock!: (via: string) => void;
    const transport = {
      connections: 1,
      deliver: (m: { to: string }) => {
        delivered.push(m.to);
        if (delivered.length > 1) return Promise.resolve("test");
        blocking();
        return new Promise<string>((resolve) => (unblock = resolve));
      },
    };
    const pass = deliverDueEmails(transport, new Date(Date.now() + 60_000));
    await firstStarted;
    // The credential is revoked while its email is held behind the one on the connection.
    await db().$transaction((tx) => cancelQueuedEmails(tx, "cred_hold"));
    unblock("test");
    await pass;
    expect(delivered).not.toContain("revoked@example.com");
    const row = await db().emailOutbox.findUniqueOrThrow({ where: { id: held }, include: { deliveryAttempts: true } });
    expect(row).toMatchObject({ status: "cancelled", leaseOwner: null });
    expect(row.deliveryAttempts).toEqual([]);
    expect(first).toBeTruthy();
  });
});

describe("repeats of a send", () => {
  const repeat = (to: string) =>
    db().$transaction((tx) =>
      enqueueEmail(
        tx,
        { organizationId: "org_t", credentialId: "cred_repeat", to, template: { subject: "Hi", html: null, text: null }, values: {} },
        { coalesceRepeats: true },
      ),
    );
  const sink = () => {
    const sent: string[] = [];
    return { sent, transport: { deliver: async (m: { messageId: string }) => (sent.push(m.messageId), "test") } };
  };

  it("each repeat restarts the window, so a burst slower than the window still sends one email", async () => {
    const first = await repeat("burst@example.com");
    const queuedAt = (await db().emailOutbox.findUniqueOrThrow({ where: { id: first } })).nextAttemptAt.getTime();
    await new Promise((r) => setTimeout(r, 300));
    expect(await repeat("burst@example.com")).toBe(first);
    const pushed = (await db().emailOutbox.findUniqueOrThrow({ where: { id: first } })).nextAttemptAt.getTime();
    expect(pushed).toBeGreaterThanOrEqual(queuedAt + 250);
    // Due by the first request's window, not by the last repeat's: nothing goes out yet.
    // (Other tests' rows may come due in these passes; only this one's fate is checked.)
    const { sent, transport } = sink();
    await deliverDueEmails(transport, new Date(queuedAt + 10));
    expect(sent).not.toContain(`<${first}@localhost>`);
    expect(await db().emailOutbox.findUniqueOrThrow({ where: { id: first } })).toMatchObject({ status: "queued", attempts: 0 });
    await deliverDueEmails(transport, new Date(pushed + 10));
    expect(sent).toContain(`<${first}@localhost>`);
    // Sent: the next send is a new email.
    const next = await repeat("burst@example.com");
    expect(next).not.toBe(first);
    expect(await db().emailOutbox.count({ where: { credentialId: "cred_repeat", toAddress: "burst@example.com" } })).toBe(2);
  });

  it("repeats never hold an email back longer than MAX_REPEAT_DELAY_MS from the first request", async () => {
    const first = await repeat("forever@example.com");
    // As if the first request came 9 s ago and repeats kept coming since.
    const createdAt = new Date(Date.now() - MAX_REPEAT_DELAY_MS + 1_000);
    await db().emailOutbox.update({ where: { id: first }, data: { createdAt } });
    expect(await repeat("forever@example.com")).toBe(first);
    const row = await db().emailOutbox.findUniqueOrThrow({ where: { id: first } });
    expect(row.nextAttemptAt.getTime()).toBe(createdAt.getTime() + MAX_REPEAT_DELAY_MS);
  });

  it("a send while a worker delivers the email queues a new one (the first may already have arrived)", async () => {
    const first = await repeat("claimed@example.com");
    const queuedFor = (await db().emailOutbox.findUniqueOrThrow({ where: { id: first } })).nextAttemptAt;
    const due = new Date(Date.now() + REPEAT_WINDOW_MS + 10);
    let during = "";
    const transport = {
      deliver: async (m: { to: string }) => {
        if (m.to === "claimed@example.com" && !during) during = await repeat("claimed@example.com");
        return "test";
      },
    };
    // Other tests' rows may come due too; these two are what count.
    await deliverDueEmails(transport, due);
    expect(during).toMatch(/^mail_/);
    expect(during).not.toBe(first);
    expect(await db().emailOutbox.findUniqueOrThrow({ where: { id: first } })).toMatchObject({
      status: "sent",
      attempts: 1,
      nextAttemptAt: queuedFor,
    });
    expect(await db().emailOutbox.findUniqueOrThrow({ where: { id: during } })).toMatchObject({
      status: "queued",
      attempts: 0,
      leaseOwner: null,
    });
    expect(await db().emailOutbox.count({ where: { credentialId: "cred_repeat", toAddress: "claimed@example.com" } })).toBe(2);
  });

  it("a send while the email waits for a retry joins it and keeps its retry time", async () => {
    const first = await repeat("retrying@example.com");
    const retryAt = new Date(Date.now() + 60_000);
    await db().emailOutbox.update({ where: { id: first }, data: { attempts: 1, nextAttemptAt: retryAt, lastError: "451 try later" } });
    expect(await repeat("retrying@example.com")).toBe(first);
    expect(await db().emailOutbox.findUniqueOrThrow({ where: { id: first } })).toMatchObject({
      status: "queued",
      attempts: 1,
      nextAttemptAt: retryAt,
    });
    expect(await db().emailOutbox.count({ where: { credentialId: "cred_repeat", toAddress: "retrying@example.com" } })).toBe(1);
  });
});

describe("each credential's email outcome, kept for the analytics funnel", () => {
  const outcomeOf = async (credentialId: string) =>
    (await db().credentialEngagement.findUnique({ where: { credentialId }, select: { mail: true } }))?.mail ?? 0;
  const send = (credentialId: string, to: string) =>
    db().$transaction((tx) =>
      enqueueEmail(tx, { organizationId: "org_t", credentialId, to, template: { subject: "Hi", html: null, text: null }, values: {} }),
    );

  it("waiting when queued, then delivered, bounced or none as the worker and cancels write it", async () => {
    const { MAIL_OUTCOME, refreshMailOutcomes } = await import("./credential-outcome");
    for (const id of ["cred_out_sent", "cred_out_bounced", "cred_out_cancelled"])
      await db().credential.create({
        data: {
          id,
          publicId: `pub_${id}`,
          organizationId: "org_t",
          groupId: "grp_t",
          recipientName: "Ada",
          status: "issued",
          issueDate: "2026-01-01",
        },
      });
    await send("cred_out_sent", "delivered@example.com");
    await send("cred_out_bounced", "refused@example.com");
    await send("cred_out_cancelled", "cancelled@example.com");
    for (const id of ["cred_out_sent", "cred_out_bounced", "cred_out_cancelled"]) expect(await outcomeOf(id)).toBe(MAIL_OUTCOME.waiting);

    await db().$transaction((tx) => cancelQueuedEmails(tx, "cred_out_cancelled"));
    expect(await outcomeOf("cred_out_cancelled")).toBe(MAIL_OUTCOME.none);

    const transport = {
      deliver: async (m: { to: string }) => {
        if (m.to === "refused@example.com")
          throw Object.assign(new Error("no such user"), { code: "EENVELOPE", responseCode: 550, command: "RCPT TO" });
        return "test";
      },
    };
    await deliverDueEmails(transport, new Date(Date.now() + 600_000));
    expect(await outcomeOf("cred_out_sent")).toBe(MAIL_OUTCOME.delivered);
    expect(await outcomeOf("cred_out_bounced")).toBe(MAIL_OUTCOME.bounced);

    // Sent again: the credential stays delivered while the new email waits, and after it goes.
    await send("cred_out_sent", "delivered-again@example.com");
    expect(await outcomeOf("cred_out_sent")).toBe(MAIL_OUTCOME.delivered);
    await deliverDueEmails(transport, new Date(Date.now() + 600_000));
    expect(await outcomeOf("cred_out_sent")).toBe(MAIL_OUTCOME.delivered);

    // What the writes kept is what a recount from the outbox gives.
    const kept = await Promise.all(["cred_out_sent", "cred_out_bounced", "cred_out_cancelled"].map(outcomeOf));
    await refreshMailOutcomes(db(), { credentialIds: ["cred_out_sent", "cred_out_bounced", "cred_out_cancelled"] });
    expect(await Promise.all(["cred_out_sent", "cred_out_bounced", "cred_out_cancelled"].map(outcomeOf))).toEqual(kept);
  });
});
