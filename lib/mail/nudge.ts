// Lets a request that queued mail wake the worker at once instead of at its next poll. The worker
// registers itself here; outside a server process (CLI, tests) nudging does nothing.
const holder = globalThis as unknown as { __cisMailNudge?: () => void };

export function setMailNudge(nudge: (() => void) | undefined): void {
  holder.__cisMailNudge = nudge;
}

export function nudgeMailWorker(): void {
  holder.__cisMailNudge?.();
}
