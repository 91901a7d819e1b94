// A response can finish before its request's body has arrived: the /v1 wrapper answers 413 after the
// first MiB, a 401 needs no body at all. The rest of that body is still on its way on the connection,
// in front of the client's next request; nothing reads it, so the next request waits until the socket
// times out. Such a response closes the connection instead: `Connection: close`, and Node ends the
// socket once the response is written. Reading the rest just to throw it away would let a client make
// the server swallow any amount of data, bounded only by yet another limit.
import type { IncomingMessage, ServerResponse } from "node:http";

/** Node marks a request `complete` once its whole body has been received (read or not), but a bodiless
 *  one only after the request handler's first synchronous run: that alone must not close anything. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

export function closeConnectionIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  // The response's headers are the last moment to say so. Node writes them through writeHead, also
  // for a response that never calls it itself (write and end call it), so that is where to look.
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (!req.complete && hasBody(req)) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
