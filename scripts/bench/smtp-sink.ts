// A local SMTP server that accepts and counts every message: where benchmarks send their mail.
import { SMTPServer } from "smtp-server";

export async function smtpSink(): Promise<{ port: number; received: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        count++;
        callback();
      });
    },
  });
  // A server stopped at the end of a run resets its pooled connections: not an error worth dying for.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received: () => count, close: () => new Promise((r) => server.close(() => r())) };
}
