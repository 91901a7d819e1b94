// Download-all limits per wallet session: two streams at once, freed however a stream ends; six starts
// in a row, then 429.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("wallet-download-limits");
const { MAX_STREAMS_PER_SESSION, releaseWhenDone, takeDownloadSlot } = await import("./stream-limits");

const busy = { code: "rate_limited", message: expect.stringMatching(/at once/) };

describe("download slots", () => {
  it("allow two streams per session at once; a slot comes back when its stream ends, fails or is destroyed", async () => {
    expect(MAX_STREAMS_PER_SESSION).toBe(2);
    const first = await takeDownloadSlot("wses_a");
    const second = await takeDownloadSlot("wses_a");
    await expect(takeDownloadSlot("wses_a")).rejects.toMatchObject(busy);
    // Another session is not held back.
    (await takeDownloadSlot("wses_other"))();

    const ended = new PassThrough();
    releaseWhenDone(ended, first);
    ended.end();
    ended.resume();
    await new Promise((resolve) => ended.once("close", resolve));
    const third = await takeDownloadSlot("wses_a");
    await expect(takeDownloadSlot("wses_a")).rejects.toMatchObject(busy);

    // The reader went away: the response stream destroys the archive.
    const abandoned = new PassThrough();
    releaseWhenDone(abandoned, second);
    abandoned.destroy();
    await new Promise((resolve) => abandoned.once("close", resolve));
    // Releasing twice frees one slot only.
    second();
    const fourth = await takeDownloadSlot("wses_a");
    await expect(takeDownloadSlot("wses_a")).rejects.toMatchObject(busy);
    third();
    fourth();
  });

  it("allow six starts in a row per session, then 429 with Retry-After", async () => {
    for (let i = 0; i < 6; i++) (await takeDownloadSlot("wses_starts"))();
    const refused = await takeDownloadSlot("wses_starts").catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/started/) });
    expect(Number((refused as { headers: Record<string, string> }).headers["Retry-After"])).toBeGreaterThan(0);
    // The refused start holds no slot: two streams can still run once tokens come back.
    (await takeDownloadSlot("wses_fresh"))();
  });
});
