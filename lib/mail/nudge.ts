// Lets a request that queued mail wake the worker at once instead of at its next poll. The worker
// registers itself here; outside a server process (CLI, tests) nudging does nothing.
import { processSlot } from "../core/process-singleton";
const nudgeSlot = () => processSlot<() => void>("mail.nudge");

export function setMailNudge(nudge: (() => void) | undefined): void {
  nudgeSlot().current = nudge;
}

export function nudgeMailWorker(): void {
  nudgeSlot().current?.();
}
