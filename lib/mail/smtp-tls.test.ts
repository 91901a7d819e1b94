// The SMTP transport opens its own sockets (Nagle off, lib/mail/transport.ts); nodemailer still does
// TLS and AUTH on them. Checked against smtp-server with its built-in self-signed certificate.
import net, { type AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { smtpTransport } from "./transport";

const servers: { close(cb: () => void): void }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function relay(
  options: SMTPServerOptions,
  port = 0,
): Promise<{ port: number; received: { to: string; user?: string; secure: boolean }[] }> {
  const received: { to: string; user?: string; secure: boolean }[] = [];
  const server = new SMTPServer({
    logger: false,
    closeTimeout: 100,
    ...options,
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo[0]!.address, user: session.user as string | undefined, secure: session.secure });
        callback();
      });
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  servers.push(server);
  return { port: (server.server.address() as AddressInfo).port, received };
}

const auth: SMTPServerOptions = {
  authMethods: ["PLAIN", "LOGIN"],
  onAuth: (a, _session, cb) =>
    a.username === "relay-user" && a.password === "s3cret"
      ? cb(null, { user: "relay-user" })
      : cb(Object.assign(new Error("Bad credentials"), { responseCode: 535 })),
};
const mail = (to: string) => ({ messageId: `<${to}@t>`, from: "a@example.com", to, subject: "S", html: "<p>x</p>", text: "x" });

describe("the SMTP transport's own sockets", () => {
  it("STARTTLS and AUTH on a submission port", async () => {
    const r = await relay({ ...auth, allowInsecureAuth: false });
    const t = smtpTransport(`smtp://relay-user:s3cret@127.0.0.1:${r.port}?tls.rejectUnauthorized=false`, { timeoutMs: 5000 });
    await t.deliver(mail("starttls@example.com"));
    expect(r.received).toEqual([{ to: "starttls@example.com", user: "relay-user", secure: true }]);
  });

  it("implicit TLS (smtps://) with AUTH; wrong credentials are refused", async () => {
    const r = await relay({ ...auth, secure: true });
    const ok = smtpTransport(`smtps://relay-user:s3cret@127.0.0.1:${r.port}?tls.rejectUnauthorized=false`, { timeoutMs: 5000 });
    await ok.deliver(mail("smtps@example.com"));
    expect(r.received).toEqual([{ to: "smtps@example.com", user: "relay-user", secure: true }]);
    const bad = smtpTransport(`smtps://relay-user:wrong@127.0.0.1:${r.port}?tls.rejectUnauthorized=false`, { timeoutMs: 5000 });
    await expect(bad.deliver(mail("no@example.com"))).rejects.toMatchObject({ code: "EAUTH" });
  });

  it("a port nobody listens on fails the connection", async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const t = smtpTransport(`smtp://127.0.0.1:${port}`, { timeoutMs: 2000 });
    await expect(t.deliver(mail("x@example.com"))).rejects.toMatchObject({
      code: expect.stringMatching(/ECONNREFUSED|ESOCKET|ECONNECTION/),
    });
  });

  it("refused connections free their pool slots: every queued message settles, and all go once the relay is up", async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    // Twice as many messages as connections: the ones queued behind a refused connection must settle too.
    const t = smtpTransport(`smtp://127.0.0.1:${port}?maxConnections=2`, { timeoutMs: 2000 });
    const refused = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => t.deliver(mail(`early-${i}@example.com`))));
    expect(refused.map((r) => r.status)).toEqual(Array(6).fill("rejected"));
    // The relay comes up on that port: the same transport delivers everything next.
    const r = await relay({ disabledCommands: ["STARTTLS", "AUTH"], authOptional: true }, port);
    await Promise.all(Array.from({ length: 6 }, (_, i) => t.deliver(mail(`late-${i}@example.com`))));
    expect(r.received.map((m) => m.to).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `late-${i}@example.com`).sort());
  });

  it("a server that accepts the connection and never greets fails within the timeout", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    servers.push({
      close: (cb) => {
        silent.close(() => cb());
      },
    });
    const t = smtpTransport(`smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeoutMs: 300 });
    const started = Date.now();
    await expect(t.deliver(mail("x@example.com"))).rejects.toMatchObject({ code: expect.stringMatching(/ETIMEDOUT|ESOCKET/) });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
