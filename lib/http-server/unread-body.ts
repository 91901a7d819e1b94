// A response can finish before its request's body has arrived: the /v1 wrapper answers 413 after the
// first MiB, a 401 needs no body at all. The rest of that body is still on its way on the connection,
// in front of the client's next request, and nothing may read it (Next has given up on the request),
// so the next request would wait until the socket times out. Such a response closes the connection
// instead: `Connection: close`, then the socket is ended. Reading the rest just to throw it away would
// let a client make the server swallow any amount of data, bounded only by yet another limit.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long a closing connection waits for the client to hang up (see lingeringClose). */
const LINGER_MS = 2_000;

/** Node marks a request `complete` once its whole body has been received (read or not), but a bodiless
 *  one only after the request handler's first synchronous run: that alone must not close anything. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Node ends a `Connection: close` response's socket with destroySoon: destroyed as soon as the response
 * is written. With the client's body still arriving, the kernel answers those bytes with a reset, and a
 * reset can make the client drop the response it has not read yet. So the socket is ended (the client
 * reads the response, then the end of the stream) and destroyed once the client hangs up, or after a
 * short wait: what web servers call a lingering close.
 */
function lingeringClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.once("end", () => this.destroy());
  };
}

export function closeConnectionIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  // Taken now: a request Next gave up on is destroyed by then, and has let go of its socket.
  const socket = req.socket;
  // The response's headers are the last moment to say so. Node writes them through writeHead, also
  // for a response that never calls it itself (write and end call it), so that is where to look.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with apply(this), never unbound
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (!req.complete && hasBody(req)) {
      this.shouldKeepAlive = false;
      lingeringClose(socket);
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
