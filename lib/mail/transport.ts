// How mail leaves: SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under
// DATA_DIR/mail, so the default setup needs no mail server and a person can open what was "sent".
import { mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import SMTPPool from "nodemailer/lib/smtp-pool";
import { config } from "../config";
import { processSingleton } from "../core/process-singleton";

/**
 * `from` as a structured address: nodemailer quotes or encodes its display name. No List-Unsubscribe:
 * these are transactional messages a person asked for by earning a credential, not a mailing list.
 */
export type OutgoingMail = {
  messageId: string;
  from: string | { name: string; address: string };
  replyTo?: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
};

export interface MailTransport {
  /** Hands the message over; resolves with where it went, rejects when it was not accepted. */
  deliver(mail: OutgoingMail): Promise<string>;
  /** How many messages it carries at once (an SMTP pool's connections); absent: no limit of its own. */
  readonly connections?: number;
}

/**
 * The body parts' transfer encoding: quoted-printable (readable, small for mostly-ASCII text) unless
 * most of the plain text is outside ASCII (Arabic, CJK…), where base64 is smaller. Decided here once
 * per email because nodemailer's own choice counts every letter of every part with two global
 * regular expressions: a tenth of the mail worker's CPU in bench:import's profile, most of it on the
 * HTML part's markup.
 */
export function textEncodingFor(text: string): "quoted-printable" | "base64" {
  let outside = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7e) outside++;
  return outside * 2 > text.length ? "base64" : "quoted-printable";
}

function message(mail: OutgoingMail) {
  return {
    from: mail.from,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    textEncoding: textEncodingFor(mail.text),
    messageId: mail.messageId,
    // The moment of this attempt, written explicitly rather than left to the library's default.
    date: new Date(),
  };
}

/** Connections the SMTP pool keeps open: as many as the worker sends at once (its PARALLEL). */
export const SMTP_POOL_CONNECTIONS = 8;

type SocketOptions = { host?: string; port?: number | string; secure?: boolean; localAddress?: string };

/**
 * Opens the TCP connection for nodemailer with Nagle's algorithm off. nodemailer leaves it on, and
 * the small write that ends a message's DATA then waits for the relay's delayed ACK (40 ms on Linux)
 * before it leaves: one message per connection every ~48 ms whatever the relay's speed (bench:
 * 1,000 emails over 5 connections to a local sink 9.7 s with it on, 3.1 s off).
 *
 * The socket is handed over while it is still connecting, and never as an error: nodemailer treats it
 * as its own connection from then on (a refused or silent relay fails through its usual error and
 * timeout handling; TLS, STARTTLS and AUTH are its own). An error returned from this hook instead
 * leaves the pool's connection slot taken for good and the messages queued behind it unsent.
 */
function connectWithoutNagle(options: SocketOptions, callback: (error: Error | null, socket?: { connection: net.Socket }) => void): void {
  const host = options.host || "localhost";
  const port = Number(options.port) || (options.secure ? 465 : 587);
  const socket = net.connect({ host, port, noDelay: true, ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
  // nodemailer adds its own error listener as soon as it takes the socket (synchronously below); this
  // one only keeps an error in between from being an uncaught exception.
  socket.on("error", () => undefined);
  callback(null, { connection: socket });
}

export function smtpTransport(url: string, options: { timeoutMs: number; maxConnections?: number }): MailTransport {
  // Pooled: without it nodemailer opens a new connection for every message, and says EHLO, STARTTLS
  // and AUTH on it again: several round trips and a TLS handshake per email to a real relay.
  // Built as an SMTPPool because nodemailer.createTransport({ url, ...options }) keeps only what the
  // URL says and drops every other option; SMTPPool merges both (settings in the URL's query win).
  const pool = new SMTPPool({
    url,
    pool: true,
    maxConnections: options.maxConnections ?? SMTP_POOL_CONNECTIONS,
    maxMessages: 500,
    // A relay that stops answering (after the end of DATA too) fails the message and closes its
    // connection, which frees the pool slot; nodemailer's defaults would wait up to 10 minutes.
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    getSocket: connectWithoutNagle,
  });
  const transport = nodemailer.createTransport(pool);
  return {
    // What the pool ended up with: a maxConnections in the URL's query wins over ours.
    connections: Math.max(1, Number(pool.options.maxConnections) || SMTP_POOL_CONNECTIONS),
    async deliver(mail) {
      const info = await transport.sendMail(message(mail));
      return `smtp (${info.response ?? "accepted"})`;
    },
  };
}

export function fileTransport(dir: string): MailTransport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async deliver(mail) {
      const info = await transport.sendMail(message(mail));
      // The Message-ID names the file: a retried delivery overwrites rather than duplicates it.
      const file = path.join(dir, `${mail.messageId.replace(/[<>]/g, "").replace(/[^A-Za-z0-9._@-]/g, "_")}.eml`);
      // The folder is made when a write finds it missing, not before every message (a system call each).
      try {
        await writeFile(file, info.message as Buffer);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "ENOENT") throw error;
        await mkdir(dir, { recursive: true });
        await writeFile(file, info.message as Buffer);
      }
      return file;
    },
  };
}

export function mailTransport(): MailTransport {
  return processSingleton("mail.transport", () => {
    const cfg = config();
    return cfg.smtpUrl
      ? smtpTransport(cfg.smtpUrl, { timeoutMs: cfg.mailAttemptTimeoutSeconds * 1000 })
      : fileTransport(path.resolve(cfg.dataDir, "mail"));
  });
}
