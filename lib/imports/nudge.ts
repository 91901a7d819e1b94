// Lets a confirmed import start at once instead of at the runner's next poll. The runner registers
// itself here (lib/background.ts); outside a server process (CLI, tests) nudging does nothing.
import { processSlot } from "../core/process-singleton";
const nudgeSlot = () => processSlot<() => void>("imports.nudge");

export function setImportNudge(nudge: (() => void) | undefined): void {
  nudgeSlot().current = nudge;
}

export function nudgeImportRunner(): void {
  nudgeSlot().current?.();
}
