import { describe, expect, it } from "vitest";
import { RenderedCache, type CacheKey } from "./rendered-cache";

const key = (over: Partial<CacheKey> = {}): CacheKey => ({
  kind: "wallet-page",
  id: "c1",
  version: "v1",
  locale: "en",
  viewer: "guest",
  ...over,
});

const cache = (maxEntries = 100, maxBytes = 1_000_000) => new RenderedCache<string>({ maxEntries, maxBytes }, (v) => v.length);

describe("RenderedCache", () => {
  it("keeps at most maxEntries, the least recently used out first", () => {
    const c = cache(2);
    c.set(key({ id: "a" }), "A");
    c.set(key({ id: "b" }), "B");
    expect(c.get(key({ id: "a" }))).toBe("A"); // a is now the most recently used
    c.set(key({ id: "c" }), "C");
    expect(c.size).toBe(2);
    expect(c.get(key({ id: "b" }))).toBeUndefined();
    expect(c.get(key({ id: "a" }))).toBe("A");
    expect(c.get(key({ id: "c" }))).toBe("C");
  });

  it("keeps at most maxBytes, and never one answer larger than the whole budget", () => {
    const c = cache(100, 10);
    c.set(key({ id: "a" }), "aaaa");
    c.set(key({ id: "b" }), "bbbb");
    c.set(key({ id: "c" }), "cccc");
    expect(c.bytes).toBeLessThanOrEqual(10);
    expect(c.get(key({ id: "a" }))).toBeUndefined();
    c.set(key({ id: "huge" }), "x".repeat(11));
    expect(c.get(key({ id: "huge" }))).toBeUndefined();
    expect(c.get(key({ id: "c" }))).toBe("cccc");
  });

  it("replacing an entry counts its bytes once", () => {
    const c = cache(100, 100);
    c.set(key(), "12345");
    c.set(key(), "123");
    expect(c.bytes).toBe(3);
    expect(c.size).toBe(1);
  });

  it("keys include the version, the locale and the viewer", () => {
    const c = cache();
    c.set(key(), "guest in English");
    expect(c.get(key({ locale: "fr" }))).toBeUndefined();
    expect(c.get(key({ viewer: "recipient:ada@example.com" }))).toBeUndefined();
    expect(c.get(key({ version: "v2" }))).toBeUndefined();
    expect(c.get(key({ kind: "credential.json" }))).toBeUndefined();
    expect(c.get(key())).toBe("guest in English");
  });

  it("keeps the parts of a key apart (no two keys run into one)", () => {
    const c = cache();
    c.set(key({ id: "a", version: "b|c" }), "one");
    expect(c.get(key({ id: "a|b", version: "c" }))).toBeUndefined();
  });

  it("concurrent misses of one key share one render", async () => {
    const c = cache();
    let renders = 0;
    let finish!: (v: string) => void;
    const render = () => {
      renders++;
      return new Promise<string | null>((resolve) => (finish = resolve));
    };
    const outcomes = [c.getOrRender(key(), render), c.getOrRender(key(), render), c.getOrRender(key(), render)];
    finish("page");
    const results = await Promise.all(outcomes);
    expect(renders).toBe(1);
    expect(results.map((r) => r.value)).toEqual(["page", "page", "page"]);
    expect(results.map((r) => r.rendered)).toEqual([true, false, false]);
    // Kept afterwards: the next caller renders nothing.
    expect(await c.getOrRender(key(), render)).toEqual({ value: "page", rendered: false });
    expect(renders).toBe(1);
  });

  it("different keys render separately", async () => {
    const c = cache();
    let renders = 0;
    const render = async () => `page ${++renders}`;
    await Promise.all([c.getOrRender(key({ locale: "en" }), render), c.getOrRender(key({ locale: "de" }), render)]);
    expect(renders).toBe(2);
  });

  it("keeps nothing when the render says not to, and the next miss renders again", async () => {
    const c = cache();
    let renders = 0;
    const render = async () => {
      renders++;
      return null;
    };
    expect(await c.getOrRender(key(), render)).toEqual({ value: null, rendered: true });
    expect(await c.getOrRender(key(), render)).toEqual({ value: null, rendered: true });
    expect(renders).toBe(2);
    expect(c.size).toBe(0);
  });

  it("a failed render fails its own caller, gives the waiting ones null, and keeps nothing", async () => {
    const c = cache();
    let fail!: (e: Error) => void;
    const first = c.getOrRender(key(), () => new Promise<string | null>((_, reject) => (fail = reject)));
    const second = c.getOrRender(key(), async () => "never called");
    fail(new Error("boom"));
    await expect(first).rejects.toThrow("boom");
    expect(await second).toEqual({ value: null, rendered: false });
    expect(c.size).toBe(0);
  });
});
