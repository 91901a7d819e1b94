// Next.js calls register() once when a server process starts: the background work starts with it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Every server process, web-only ones too: they write (lib/db/wal-checkpointer.ts).
  const { enableWalCheckpoints } = await import("./lib/db/wal-checkpointer");
  enableWalCheckpoints();
  const { config } = await import("./lib/config");
  if (config().background !== "off") {
    const { startBackgroundWork } = await import("./lib/background");
    startBackgroundWork();
  }
}
