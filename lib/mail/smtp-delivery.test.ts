// The mail worker against a real SMTP relay on a loopback port (smtp-server) that refuses or stalls
// some recipients, as relays do: what is retried, what is given up on at once, and that one relay
// that never answers holds one delivery for one attempt timeout, not everyone's mail.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

const ATTEMPT_TIMEOUT_MS = 2000;

/**
 * Behaviour by the recipient's local part: `gone-` is refused at RCPT with 550, `busy-` with 451 the
 * first time, `spam-` at the end of DATA with 554; `stall-` reads the message and never answers the
 * first time. `refuseSender` refuses MAIL FROM with 553.
 */
type Relay = {
  url: string;
  connections: number;
  rcpt: string[];
  delivered: { to: string; messageId: string }[];
  stalled: string[];
  refuseSender: boolean;
  close(): Promise<void>;
};

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

async function startRelay(): Promise<Relay> {
  const relay = {
    connections: 0,
    rcpt: [] as string[],
    delivered: [] as { to: string; messageId: string }[],
    stalled: [] as string[],
    refuseSender: false,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 200,
    onConnect: (_session, callback) => {
      relay.connections++;
      callback();
    },
    onMailFrom: (_address, _session, callback) => callback(relay.refuseSender ? smtpError(553, "Sender not allowed") : null),
    onRcptTo: ({ address }, _session, callback) => {
      const earlier = relay.rcpt.filter((a) => a === address).length;
      relay.rcpt.push(address);
      if (address.startsWith("gone-")) return callback(smtpError(550, "Mailbox unavailable"));
      if (address.startsWith("busy-") && earlier === 0) return callback(smtpError(451, "Try again later"));
      callback();
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const to = session.envelope.rcptTo[0]!.address;
        const messageId = /^Message-ID:\s*(\S+)/im.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "";
        if (to.startsWith("spam-")) return callback(smtpError(554, "Message refused"));
        if (to.startsWith("stall-") && !relay.stalled.includes(to)) {
          relay.stalled.push(to);
          return; // the end of DATA is never answered
        }
        relay.delivered.push({ to, messageId });
        callback();
      });
    },
  });
  server.on("error", () => undefined); // a client that times out and hangs up is expected here
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return Object.assign(relay, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

const relay = await startRelay();
await scratchDatabase("mail-smtp", {
  SMTP_URL: relay.url,
  MAIL_ATTEMPT_TIMEOUT_SECONDS: String(ATTEMPT_TIMEOUT_MS / 1000),
  MAIL_RETRY_BASE_SECONDS: "1",
  MAIL_MAX_ATTEMPTS: "5",
});

const { db } = await import("../db");
const { enqueueEmail } = await import("./outbox");
const { nudgeMailWorker } = await import("./nudge");
const { deliverDueEmails } = await import("./worker");
const { mailTransport, smtpTransport } = await import("./transport");
const { startBackgroundWork } = await import("../background");

async function queue(organizationId: string, to: string): Promise<string> {
  return db().$transaction((tx) =>
    enqueueEmail(tx, {
      organizationId,
      credentialId: null,
      to,
      template: { subject: "Hi", html: null, text: null },
      values: { "recipient.name": "Ada" },
    }),
  );
}

function outbox(id: string) {
  return db().emailOutbox.findUniqueOrThrow({ where: { id }, include: { deliveryAttempts: { orderBy: { startedAt: "asc" } } } });
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

beforeAll(async () => {
  await db().organization.createMany({
    data: [
      { id: "org_a", slug: "a", name: "A" },
      { id: "org_b", slug: "b", name: "B" },
    ],
  });
});

afterAll(async () => {
  await relay.close();
});

describe("refusals from the relay", () => {
  it("a 550 for the recipient: one attempt, failed at once with the reason, never retried", async () => {
    const id = await queue("org_a", "gone-1@example.com");
    expect(await deliverDueEmails()).toBe(1);
    const row = await outbox(id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, leaseUntil: null, lastError: "EENVELOPE SMTP 550 during RCPT TO" });
    expect(row.deliveryAttempts.map((a) => [a.outcome, a.error])).toEqual([["failed", "EENVELOPE SMTP 550 during RCPT TO"]]);
    expect(await deliverDueEmails(mailTransport(), later(3600))).toBe(0);
    expect(relay.rcpt.filter((a) => a === "gone-1@example.com")).toHaveLength(1);
  });

  it("a 554 at the end of DATA: failed at once", async () => {
    const id = await queue("org_a", "spam-1@example.com");
    expect(await deliverDueEmails()).toBe(1);
    expect(await outbox(id)).toMatchObject({ status: "failed", attempts: 1, lastError: "EMESSAGE SMTP 554 during DATA" });
    expect(await deliverDueEmails(mailTransport(), later(3600))).toBe(0);
  });

  it("a 451 is queued for a retry after the backoff, which delivers it with the same Message-ID", async () => {
    const id = await queue("org_a", "busy-1@example.com");
    expect(await deliverDueEmails()).toBe(1);
    const first = await outbox(id);
    expect(first).toMatchObject({ status: "queued", attempts: 1, leaseUntil: null, lastError: "EENVELOPE SMTP 451 during RCPT TO" });
    expect(first.nextAttemptAt.getTime() - first.deliveryAttempts[0]!.finishedAt!.getTime()).toBe(1000);
    expect(await deliverDueEmails()).toBe(0); // not before the backoff
    expect(await deliverDueEmails(mailTransport(), later(2))).toBe(1);
    const final = await outbox(id);
    expect(final).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(final.deliveryAttempts.map((a) => a.outcome)).toEqual(["failed", "sent"]);
    expect(relay.delivered.filter((d) => d.to === "busy-1@example.com")).toEqual([
      { to: "busy-1@example.com", messageId: final.messageId },
    ]);
  });

  it("a 5xx for our sender (a setting to fix, the same for every email) is retried, not given up on", async () => {
    const id = await queue("org_a", "sender-1@example.com");
    relay.refuseSender = true;
    try {
      expect(await deliverDueEmails()).toBe(1);
    } finally {
      relay.refuseSender = false;
    }
    expect(await outbox(id)).toMatchObject({ status: "queued", attempts: 1, lastError: "EENVELOPE SMTP 553 during MAIL FROM" });
    expect(await deliverDueEmails(mailTransport(), later(2))).toBe(1);
    expect(await outbox(id)).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("a relay that never answers the end of DATA", () => {
  it("costs its pooled connection one timeout: the connection is dropped and the pool sends on", async () => {
    // One connection, so the next message can only go once the stuck one has given its slot back.
    const transport = smtpTransport(relay.url, { timeoutMs: 500, maxConnections: 1 });
    const mail = (to: string, n: number) => ({
      messageId: `<pool-${n}@localhost>`,
      from: "a@localhost",
      to,
      subject: "S",
      html: "<p>x</p>",
      text: "x",
    });
    const connectionsBefore = relay.connections;
    const started = Date.now();
    await expect(transport.deliver(mail("stall-pool@example.com", 1))).rejects.toMatchObject({ code: "ETIMEDOUT" });
    expect(Date.now() - started).toBeLessThan(5000);
    for (const n of [2, 3]) await expect(transport.deliver(mail("next-pool@example.com", n))).resolves.toMatch(/^smtp \(250/);
    // The stuck connection and one new one, kept open for both messages: the pool is in effect.
    expect(relay.connections - connectionsBefore).toBe(2);
  });

  it("holds one delivery for one attempt timeout: the next email goes meanwhile; the stuck one is recorded as failed and retried", async () => {
    const background = startBackgroundWork();
    try {
      const stuck = await queue("org_a", "stall-1@example.com");
      nudgeMailWorker();
      await waitFor("the relay to receive the stuck message", async () => relay.stalled.includes("stall-1@example.com"));

      // Another organization's email, queued while the first one is stuck, leaves within the timeout.
      const queuedAt = Date.now();
      const next = await queue("org_b", "next-1@example.com");
      nudgeMailWorker();
      const sent = await waitFor("the next email", async () => (await outbox(next)).status === "sent" && (await outbox(next)));
      expect(sent.sentAt!.getTime() - queuedAt).toBeLessThan(ATTEMPT_TIMEOUT_MS);
      expect(await outbox(stuck)).toMatchObject({ status: "queued", attempts: 1, deliveryAttempts: [] }); // still in flight

      const failedAttempt = await waitFor("the stuck attempt's outcome", async () => (await outbox(stuck)).deliveryAttempts[0]);
      expect(failedAttempt.outcome).toBe("failed");
      expect(failedAttempt.error).toMatch(/^ETIMEDOUT/);
      const took = failedAttempt.finishedAt!.getTime() - failedAttempt.startedAt.getTime();
      expect(took).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(ATTEMPT_TIMEOUT_MS + 1000);
      expect(sent.sentAt!.getTime()).toBeLessThan(failedAttempt.finishedAt!.getTime());

      // Retried after the backoff (1 s); this time the relay answers.
      const final = await waitFor("the retry", async () => (await outbox(stuck)).status === "sent" && (await outbox(stuck)));
      expect(final.attempts).toBe(2);
      expect(final.deliveryAttempts.map((a) => a.outcome)).toEqual(["failed", "sent"]);
      expect(final.deliveryAttempts[1]!.startedAt.getTime()).toBeGreaterThanOrEqual(failedAttempt.finishedAt!.getTime() + 1000);
      expect(relay.delivered.filter((d) => d.to === "stall-1@example.com")).toEqual([
        { to: "stall-1@example.com", messageId: final.messageId },
      ]);
    } finally {
      background.stop();
    }
  });
});
