// How much "Download all" one wallet session may ask for. Each zip renders every credential's PDF and
// PNG, so the per-address limit of the wallet routes (60 at once) is far too loose for it: a session
// may stream at most MAX_STREAMS_PER_SESSION zips at once (a slot is freed when its stream ends, fails
// or its reader goes away), and start a few in a row, then one every so often (the shared rate
// limiter, so every process counts the same starts). The count of open streams is this process's:
// a stream lives on the process that serves it.
import type { Readable } from "node:stream";
import { ApiError } from "../core/errors";
import { processSingleton } from "../core/process-singleton";
import { rateLimitSubject, sharedLimiter } from "../rate-limit/shared-rate-limit";

export const MAX_STREAMS_PER_SESSION = 2;
/** Starts per session: 6 in a row, then one every 10 s. */
const STARTS_PER_SESSION = { name: "wallet-download.session", perSecond: 0.1, burst: 6 };
/** What a refused concurrent download is told: a zip of a few credentials takes seconds. */
const BUSY_RETRY_AFTER_SECONDS = 5;

const openStreams = () => processSingleton("walletDownload.openStreams", () => new Map<string, number>());

/**
 * Takes a download slot of the session, or throws 429 `rate_limited` (with Retry-After). Returns the
 * release to hand to `releaseWhenDone` (or to call if no stream is started after all); it frees the
 * slot once, however often it is called.
 */
export async function takeDownloadSlot(sessionId: string): Promise<() => void> {
  const open = openStreams();
  if ((open.get(sessionId) ?? 0) >= MAX_STREAMS_PER_SESSION) {
    throw new ApiError("rate_limited", `At most ${MAX_STREAMS_PER_SESSION} downloads at once; retry in ${BUSY_RETRY_AFTER_SECONDS} s.`, {
      headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) },
    });
  }
  // Counted before the shared limiter is asked (which may wait on the database), so two requests
  // arriving together cannot both pass the check above.
  open.set(sessionId, (open.get(sessionId) ?? 0) + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (open.get(sessionId) ?? 1) - 1;
    if (left > 0) open.set(sessionId, left);
    else open.delete(sessionId);
  };
  try {
    const rate = await sharedLimiter(STARTS_PER_SESSION).take(rateLimitSubject(`wallet-session:${sessionId}`));
    if (!rate.allowed) {
      throw new ApiError("rate_limited", `Too many downloads started; retry in ${rate.retryAfterSeconds} s.`, {
        headers: { "Retry-After": String(rate.retryAfterSeconds) },
      });
    }
  } catch (error) {
    release();
    throw error;
  }
  return release;
}

/** Frees the slot when the archive's stream is over: read to the end, failed, or destroyed because its reader went away. */
export function releaseWhenDone(stream: Readable, release: () => void): void {
  stream.once("close", release);
  stream.once("end", release);
  stream.once("error", release);
}
