// Lets a confirmed import start at once instead of at the runner's next poll. The runner registers
// itself here (lib/background.ts); outside a server process (CLI, tests) nudging does nothing.
const holder = globalThis as unknown as { __cisImportNudge?: () => void };

export function setImportNudge(nudge: (() => void) | undefined): void {
  holder.__cisImportNudge = nudge;
}

export function nudgeImportRunner(): void {
  holder.__cisImportNudge?.();
}
