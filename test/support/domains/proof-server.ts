// A local website for the domain tests: each test says how /.well-known/credential-issuer.txt answers.
// Claims name it as `localhost:<port>`, which the WEBHOOK_ALLOW_PRIVATE test switch allows.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProofAnswer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export type ProofServer = {
  domain: string;
  /** Requests received, by path. */
  hits: string[];
  answer: (handler: ProofAnswer) => void;
  serve: (status: number, body: string, headers?: Record<string, string>) => void;
  close: () => Promise<void>;
};

export async function startProofServer(): Promise<ProofServer> {
  let handler: ProofAnswer = (_req, res) => res.writeHead(404).end();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    domain: `localhost:${(server.address() as AddressInfo).port}`,
    hits,
    answer: (h) => (handler = h),
    serve: (status, body, headers = {}) =>
      (handler = (_req, res) => res.writeHead(status, { "content-type": "text/plain", ...headers }).end(body)),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
