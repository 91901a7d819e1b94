// Next.js calls register() once when a server process starts: the background work starts with it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.CIS_BACKGROUND !== "off") {
    const { startBackgroundWork } = await import("./lib/background");
    startBackgroundWork();
  }
}
