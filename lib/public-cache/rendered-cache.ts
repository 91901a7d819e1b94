// A bounded, in-process cache of rendered answers (the public faces: wallet pages, signed documents,
// profiles), least recently used out first, bounded both in entries and in bytes.
//
// It never decides whether an answer is still right: its keys do. A key names the thing (kind and id)
// and the version of every row the answer was built from, read with one indexed query before each
// lookup, plus everything else the answer depends on (the reader's language, who is looking). So an
// edit, a revocation or a privacy change is a new key on the next request, in this process and every
// other one sharing the database, and the old entry simply ages out; no notice has to arrive for the
// cache to be right.
//
// Concurrent misses of one key share one render: the first caller renders, the others wait for it and
// then answer what it kept (a post that does well sends hundreds of visitors a second to one page).

export type CacheKey = {
  /** What is cached: "wallet-page", "credential.json", ... */
  kind: string;
  id: string;
  /** A value that changes whenever anything the answer was built from changes. */
  version: string;
  /** The language the answer is in ("" for documents that have none). */
  locale: string;
  /** Who is looking: "guest", or the signed-in recipient the answer was rendered for. */
  viewer: string;
};

/** One text per key; no part can run into the next (JSON quotes and escapes each). */
export function keyText(key: CacheKey): string {
  return JSON.stringify([key.kind, key.id, key.version, key.locale, key.viewer]);
}

export type RenderOutcome<V> = {
  /** The kept value (or the one just rendered), or null: this answer is not kept (the caller answers some other way). */
  value: V | null;
  /** True for the caller that ran `render` itself (and so already answered its client). */
  rendered: boolean;
};

export class RenderedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private readonly inFlight = new Map<string, Promise<V | null>>();
  private totalBytes = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number },
    private readonly sizeOf: (value: V) => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** The kept value, made the most recently used. */
  get(key: CacheKey): V | undefined {
    const text = keyText(key);
    const entry = this.entries.get(text);
    if (!entry) return undefined;
    // A Map iterates in insertion order: re-inserting makes it the newest, so the oldest is first.
    this.entries.delete(text);
    this.entries.set(text, entry);
    return entry.value;
  }

  set(key: CacheKey, value: V): void {
    const text = keyText(key);
    const bytes = this.sizeOf(value);
    this.remove(text);
    // One answer larger than the whole budget is not kept (it would push everything else out).
    if (bytes > this.limits.maxBytes) return;
    this.entries.set(text, { value, bytes });
    this.totalBytes += bytes;
    while (this.entries.size > this.limits.maxEntries || this.totalBytes > this.limits.maxBytes) {
      this.remove(this.entries.keys().next().value!);
    }
  }

  /**
   * The kept value, or the outcome of one `render` shared by every caller that asks for the same key
   * while it runs. `render` answers null for what must not be kept; a failed render is each waiting
   * caller's null too (they answer without the cache), and the renderer's own error.
   */
  async getOrRender(key: CacheKey, render: () => Promise<V | null>): Promise<RenderOutcome<V>> {
    const kept = this.get(key);
    if (kept !== undefined) return { value: kept, rendered: false };
    const text = keyText(key);
    const running = this.inFlight.get(text);
    if (running) return { value: await running.catch(() => null), rendered: false };
    const rendering = (async () => {
      const value = await render();
      if (value !== null) this.set(key, value);
      return value;
    })();
    this.inFlight.set(text, rendering);
    try {
      return { value: await rendering, rendered: true };
    } finally {
      this.inFlight.delete(text);
    }
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  private remove(text: string): void {
    const entry = this.entries.get(text);
    if (!entry) return;
    this.entries.delete(text);
    this.totalBytes -= entry.bytes;
  }
}
