// Lets a request that queued a retry wake the webhook worker at once instead of at its next poll. The
// worker registers itself here; outside a server process (CLI, tests) nudging does nothing.
import { processSlot } from "../core/process-singleton";
const nudgeSlot = () => processSlot<() => void>("webhooks.nudge");

export function setWebhookNudge(nudge: (() => void) | undefined): void {
  nudgeSlot().current = nudge;
}

export function nudgeWebhookWorker(): void {
  nudgeSlot().current?.();
}
