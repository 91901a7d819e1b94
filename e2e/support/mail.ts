// Mail for the email specs: a real SMTP server in the test process (the `smtp-server` package) that
// records every delivery attempt, a small MIME reader for what it receives (and for the `.eml` files
// the app writes without SMTP_URL), and polling helpers.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

// ---- MIME ---------------------------------------------------------------------------------------

export type ParsedMail = {
  /** Header names lower-cased; values unfolded and RFC 2047-decoded. */
  headers: Record<string, string>;
  subject: string;
  messageId: string;
  to: string;
  from: string;
  /** Decoded text/plain and text/html bodies ("" when absent). */
  text: string;
  html: string;
  raw: string;
};

function decodeQuotedPrintable(body: string): Buffer {
  const soft = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`); adjacent words join without the blank between. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) => {
      if (enc.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
      return decodeQuotedPrintable(text.replace(/_/g, " ")).toString("utf8");
    });
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const m = /\r?\n\r?\n/.exec(raw);
  const head = m ? raw.slice(0, m.index) : raw;
  const body = m ? raw.slice(m.index + m[0].length) : "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    if (!(name in headers)) headers[name] = decodeWords(line.slice(i + 1).trim());
  }
  return { headers, body };
}

function param(header: string, name: string): string | undefined {
  const m = new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(header);
  return m ? (m[1] ?? m[2]) : undefined;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body).toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

function collectParts(raw: string, out: { text: string; html: string }): void {
  const { headers, body } = splitHead(raw);
  const type = (headers["content-type"] ?? "text/plain").toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = param(headers["content-type"]!, "boundary");
    if (!boundary) return;
    const sections = body.split(new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*\\r?\\n?`));
    for (const s of sections.slice(1)) if (s.trim()) collectParts(s, out);
    return;
  }
  const decoded = decodeBody(body, headers["content-transfer-encoding"]);
  if (type.startsWith("text/html")) out.html ||= decoded;
  else if (type.startsWith("text/plain")) out.text ||= decoded;
}

export function parseMail(raw: string): ParsedMail {
  const { headers } = splitHead(raw);
  const parts = { text: "", html: "" };
  collectParts(raw, parts);
  return {
    headers,
    subject: headers["subject"] ?? "",
    messageId: headers["message-id"] ?? "",
    to: headers["to"] ?? "",
    from: headers["from"] ?? "",
    text: parts.text,
    html: parts.html,
    raw,
  };
}

/** The HTML body's visible text with entities decoded (enough for asserting on values). */
export function htmlText(html: string): string {
  return (
    html
      // Inline elements (a name isolated in <bdi>, a link) add no space where a mail client shows them.
      .replace(/<\/?(?:a|b|bdi|em|i|span|strong)(?:\s[^>]*)?>/gi, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, " ")
  );
}

// ---- SMTP sink ----------------------------------------------------------------------------------

export type Received = { mailFrom: string; rcptTo: string[]; mail: ParsedMail; at: number };
/** One DATA transfer, accepted or not. */
export type DataAttempt = { rcptTo: string[]; messageId: string; accepted: boolean; at: number };

export type SinkBehaviour = {
  /** Return an SMTP code (e.g. 550) to reject this RCPT TO, or null to accept it. `attempt` counts RCPTs of this address, from 1. */
  rcpt?: (address: string, attempt: number) => number | null;
  /**
   * Return an SMTP code (e.g. 451) to refuse the message after DATA, or null to accept it. `attempt`
   * counts the transfers of this Message-ID, from 1.
   */
  data?: (messageId: string, attempt: number, rcptTo: string[]) => number | null;
};

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export class SmtpSink {
  readonly received: Received[] = [];
  readonly rcptAttempts: { address: string; accepted: boolean; at: number }[] = [];
  readonly dataAttempts: DataAttempt[] = [];
  port = 0;
  /** While set, every message's answer after DATA waits for it: nothing is accepted meanwhile. */
  hold: Promise<void> | null = null;
  private server: SMTPServer | null = null;
  private readonly closedSessions = new Set<string>();

  constructor(private behaviour: SinkBehaviour = {}) {}

  /** Listens on 127.0.0.1, on `port` or a free one. */
  async start(port = 0): Promise<number> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      closeTimeout: 1000,
      size: 10 * 1024 * 1024,
      onRcptTo: (address: SMTPServerAddress, _session, callback) => {
        const attempt = this.rcptAttempts.filter((a) => a.address === address.address).length + 1;
        const code = this.behaviour.rcpt?.(address.address, attempt) ?? null;
        this.rcptAttempts.push({ address: address.address, accepted: code === null, at: Date.now() });
        callback(code === null ? null : smtpError(code, code >= 500 ? "Mailbox unavailable (test sink)" : "Try again later (test sink)"));
      },
      onClose: (session) => {
        this.closedSessions.add(session.id);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on(
          "end",
          () =>
            void (async () => {
              if (this.hold) {
                await this.hold;
                // The client went away while its message was held: it never saw an answer, so the message
                // was not delivered (a real server would not have accepted it either).
                if (this.closedSessions.has(session.id)) return;
              }
              const raw = Buffer.concat(chunks).toString("utf8");
              const mail = parseMail(raw);
              const rcptTo = session.envelope.rcptTo.map((a) => a.address);
              const attempt = this.dataAttempts.filter((a) => a.messageId === mail.messageId).length + 1;
              const code = this.behaviour.data?.(mail.messageId, attempt, rcptTo) ?? null;
              this.dataAttempts.push({ rcptTo, messageId: mail.messageId, accepted: code === null, at: Date.now() });
              if (code !== null) return callback(smtpError(code, "Temporarily refused (test sink)"));
              const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
              this.received.push({ mailFrom, rcptTo, mail, at: Date.now() });
              callback(null);
            })(),
        );
      },
    });
    server.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      const net = server.listen(port, "127.0.0.1", () => resolve());
      net.once("error", reject);
    });
    this.server = server;
    this.port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
    return this.port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Messages whose envelope goes to `address` (case-insensitive). */
  to(address: string): Received[] {
    return this.received.filter((r) => r.rcptTo.some((a) => a.toLowerCase() === address.toLowerCase()));
  }
}

// ---- .eml files (no SMTP_URL) -------------------------------------------------------------------

// The shared servers' mail folders hold thousands of messages by the end of a run, and tests poll them:
// each file is read and parsed once (a written .eml never changes; one still being written is read again).
const parsedEml = new Map<string, { size: number; raw: string; mail: ParsedMail }>();

/** Parsed `.eml` files under `dir` whose raw text contains `needle`. */
export function emlFilesContaining(dir: string, needle: string): { file: string; mail: ParsedMail }[] {
  if (!existsSync(dir)) return [];
  const out: { file: string; mail: ParsedMail }[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".eml")) continue;
    const file = path.join(dir, name);
    let entry = parsedEml.get(file);
    try {
      const size = statSync(file).size;
      if (!entry || entry.size !== size) {
        const raw = readFileSync(file, "utf8");
        entry = { size: Buffer.byteLength(raw), raw, mail: parseMail(raw) };
        parsedEml.set(file, entry);
      }
    } catch {
      continue; // being written, or removed
    }
    const { raw, mail } = entry;
    if (raw.includes(needle) || mail.to.includes(needle) || mail.text.includes(needle) || mail.html.includes(needle))
      out.push({ file, mail });
  }
  return out;
}

// ---- polling ------------------------------------------------------------------------------------

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
