// The app's HTTP server: Next.js's request handler behind a plain Node server, so that route handlers
// learn the client's address and scheme (lib/api/client-connection.ts). Started by scripts/start.ts.
import { createServer, type IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import next from "next";
import { servePreview } from "./lib/previews/http";
import { CLIENT_ADDRESS_HEADER, CLIENT_FORWARDED_FOR_HEADER, CLIENT_FORWARDED_PROTO_HEADER, CLIENT_SCHEME_HEADER } from "./lib/api/client-connection";

function stampConnection(req: IncomingMessage) {
  // Overwrite whatever a client sent under these names: only the socket may speak here. Next fills in
  // X-Forwarded-For/-Proto itself before handlers run, so the values the client (or its proxy) sent
  // are kept under our own names first.
  req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  req.headers[CLIENT_SCHEME_HEADER] = (req.socket as TLSSocket).encrypted ? "https" : "http";
  req.headers[CLIENT_FORWARDED_FOR_HEADER] = joined(req.headers["x-forwarded-for"]);
  req.headers[CLIENT_FORWARDED_PROTO_HEADER] = joined(req.headers["x-forwarded-proto"]);
}

function joined(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

export async function startServer(options: { dev: boolean; host: string; port: number }): Promise<() => Promise<void>> {
  const app = next({ dev: options.dev, hostname: options.host === "0.0.0.0" ? "localhost" : options.host, port: options.port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer((req, res) => {
    stampConnection(req);
    const fail = () => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error");
    };
    servePreview(req, res)
      .then((served) => (served ? undefined : handle(req, res)))
      .catch(fail);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
}
