// A local webhook receiver for the delivery specs: every request is kept with its headers and body and
// checked with the Standard Webhooks library against the secrets the test registers for its path.
// Paths choose the behaviour: /ok/* answers 200, /fail/* 500, /hang/* never answers, /redirect/* 302,
// /huge/* streams 10 MB, /slow/* answers 200 after a second.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Delivery = {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Parsed body, when a registered secret verified it; null otherwise. */
  event: { id: string; type: string; createdAt: string; data: any } | null;
  at: number;
  /** True once the answer was written to a connection still open (a sender killed mid-request never gets it). */
  answered: boolean;
};

export class WebhookReceiver {
  readonly received: Delivery[] = [];
  private readonly secrets = new Map<string, string[]>();
  private server?: http.Server;
  url = "";

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "/";
        const body = Buffer.concat(chunks).toString("utf8");
        const headers = req.headers as Record<string, string>;
        const delivery: Delivery = { path, headers, body, event: this.verify(path, body, headers), at: Date.now(), answered: false };
        this.received.push(delivery);
        res.on("finish", () => (delivery.answered = !req.socket.destroyed));
        if (path.startsWith("/fail")) return void res.writeHead(500, { "content-type": "text/plain" }).end("receiver exploded");
        if (path.startsWith("/hang")) return; // never answers
        if (path.startsWith("/redirect")) return void res.writeHead(302, { location: `${this.url}/ok/redirected` }).end();
        if (path.startsWith("/huge")) return void this.streamHuge(res);
        if (path.startsWith("/slow")) return void setTimeout(() => !req.socket.destroyed && res.writeHead(200).end("slow ok"), 1000);
        res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private streamHuge(res: http.ServerResponse) {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const pump = () => {
      while (sent < 160 && res.write(chunk)) sent++; // 10 MB
      if (sent < 160) res.once("drain", pump);
      else res.end();
    };
    res.on("error", () => undefined);
    pump();
  }

  /** Deliveries to `path` are verified with these secrets (any one may match). */
  expectSecrets(path: string, ...secrets: string[]) {
    this.secrets.set(path, secrets);
  }

  private verify(path: string, body: string, headers: Record<string, string>): Delivery["event"] {
    for (const secret of this.secrets.get(path) ?? []) {
      try {
        return new Webhook(secret).verify(body, headers) as Delivery["event"];
      } catch {
        /* try the next secret */
      }
    }
    return null;
  }

  to(path: string): Delivery[] {
    return this.received.filter((d) => d.path === path);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }
}
