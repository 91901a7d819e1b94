// HTTP/1.1 over a plain TCP socket: requests written as bytes, responses read back one at a time. For
// what HTTP clients hide: several requests on one connection, bodies the server stops reading, paths
// sent exactly as written (no client normalises "%ff" away).
import { connect, type Socket } from "node:net";

export type RawResponse = { status: number; headers: Record<string, string>; body: Buffer };

const HEADER_END = Buffer.from("\r\n\r\n");

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private changed: () => void = () => undefined;
  private ended = false;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.changed();
    });
    const end = () => {
      this.ended = true;
      this.changed();
    };
    socket.on("end", end);
    socket.on("close", end);
    // A server that closes while the client is still sending makes writes fail (EPIPE, ECONNRESET):
    // that is one of the outcomes under test, not a test failure.
    socket.on("error", end);
  }

  static open(baseURL: string): Promise<RawConnection> {
    const url = new URL(baseURL);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** Writes bytes; a connection the server already closed swallows them. */
  write(data: string | Buffer): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(data);
  }

  get closed(): boolean {
    return this.ended;
  }

  close(): void {
    this.socket.destroy();
  }

  private async waitFor<T>(deadline: number, take: () => T | undefined, what: string): Promise<T> {
    for (;;) {
      const value = take();
      if (value !== undefined) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.changed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /**
   * The next response on the connection, or "closed" when the server closes it before one begins.
   * Throws when neither happens within `timeoutMs`.
   */
  async readResponse(timeoutMs: number, options: { head?: boolean } = {}): Promise<RawResponse | "closed"> {
    const deadline = Date.now() + timeoutMs;
    const headerEnd = await this.waitFor(
      deadline,
      () => {
        const at = this.buffer.indexOf(HEADER_END);
        if (at >= 0) return at;
        return this.ended ? -1 : undefined;
      },
      "a response",
    );
    if (headerEnd < 0) {
      if (this.buffer.length === 0) return "closed";
      throw new Error(`connection closed in the middle of a response's headers: ${this.buffer.toString("latin1").slice(0, 200)}`);
    }
    const [statusLine, ...lines] = this.buffer.subarray(0, headerEnd).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    this.buffer = this.buffer.subarray(headerEnd + HEADER_END.length);

    let body: Buffer;
    if (options.head || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = await this.waitFor(deadline, () => this.lineEnd(), "a chunk size");
        const size = parseInt(this.buffer.subarray(0, lineEnd).toString("latin1"), 16);
        await this.waitFor(deadline, () => (this.buffer.length >= lineEnd + 2 + size + 2 ? true : this.failIfEnded("chunk")), "a chunk");
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        this.buffer = this.buffer.subarray(lineEnd + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      await this.waitFor(deadline, () => (this.buffer.length >= length ? true : this.failIfEnded("body")), "a body");
      body = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
    } else {
      await this.waitFor(deadline, () => (this.ended ? true : undefined), "the end of a body without a length");
      body = this.buffer;
      this.buffer = Buffer.alloc(0);
    }
    return { status, headers, body };
  }

  private lineEnd(): number | undefined {
    const at = this.buffer.indexOf("\r\n");
    return at >= 0 ? at : this.failIfEnded("chunk size");
  }

  private failIfEnded(what: string): undefined {
    if (this.ended) throw new Error(`connection closed in the middle of a response (${what})`);
    return undefined;
  }

  /** Resolves true once the server has closed the connection, false if it is still open after `timeoutMs`. */
  async closesWithin(timeoutMs: number): Promise<boolean> {
    try {
      await this.waitFor(Date.now() + timeoutMs, () => (this.ended ? true : undefined), "the connection to close");
      return true;
    } catch {
      return false;
    }
  }
}
