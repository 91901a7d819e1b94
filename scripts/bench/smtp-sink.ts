// A local SMTP server that accepts and counts every message: where benchmarks send their mail. It also
// counts distinct Message-IDs, so a benchmark can tell an email sent twice from two emails.
import { SMTPServer } from "smtp-server";

export type SmtpSink = {
  port: number;
  /** Messages accepted. */
  received: () => number;
  /** Distinct Message-ID headers among them (a retry of an email that had gone out repeats its id). */
  distinct: () => number;
  /** performance.now() when the last message was accepted; null before the first. */
  lastReceivedAt: () => number | null;
  close: () => Promise<void>;
};

export async function smtpSink(): Promise<SmtpSink> {
  let count = 0;
  let lastAt: number | null = null;
  const messageIds = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString("latin1");
      });
      stream.on("end", () => {
        count++;
        lastAt = performance.now();
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1];
        messageIds.add(id ?? `(none ${count})`);
        callback();
      });
    },
  });
  // A server stopped at the end of a run resets its pooled connections: not an error worth dying for.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    received: () => count,
    distinct: () => messageIds.size,
    lastReceivedAt: () => lastAt,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
