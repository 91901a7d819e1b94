// One instance per process of what must not be duplicated (the database client, rate limiters,
// caches, the mail transport). A module is not one per process under Next: every route bundle, and
// server.ts outside the bundles, may load its own copy of it, so the instances live in one registry on
// globalThis, by name.
const REGISTRY = Symbol.for("cis.processSingletons");

function registry(): Map<string, unknown> {
  const holder = globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>;
  return (holder[REGISTRY] ??= new Map<string, unknown>());
}

/** The process's instance named `name`, made by `make` on first use. */
export function processSingleton<T>(name: string, make: () => T): T {
  const instances = registry();
  if (!instances.has(name)) instances.set(name, make());
  return instances.get(name) as T;
}

/** A process-wide slot that code elsewhere sets and reads (a worker registering its wake-up call). */
export function processSlot<T>(name: string): { current: T | undefined } {
  return processSingleton(name, () => ({ current: undefined as T | undefined }));
}
