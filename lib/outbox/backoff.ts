// The retry schedule every outbox shares: the wait doubles after each failed attempt, from `baseMs`
// after the first, and never exceeds `capMs`.
export function exponentialBackoffMs(attempts: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
}
