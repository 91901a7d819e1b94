// Cursor pagination of GET /v1/groups and GET /v1/designs (docs/api.md, Success statuses and pagination).
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus } from "../support/api-helpers";

type Item = { id: string; createdAt: string };
type Page = { data: Item[]; pagination: { prev: string | null; next: string | null } };

const LISTS = {
  groups: {
    path: "/v1/groups",
    async make(api: APIRequestContext, n: number): Promise<Item[]> {
      const design = await createDesign(api, "certificate");
      const made: Item[] = [];
      for (let i = 0; i < n; i++) made.push(await createGroup(api, { name: `G${i}`, designIds: [design.id] }));
      return made;
    },
  },
  designs: {
    path: "/v1/designs",
    async make(api: APIRequestContext, n: number): Promise<Item[]> {
      const made: Item[] = [];
      for (let i = 0; i < n; i++) made.push(await createDesign(api, i % 2 ? "badge" : "certificate"));
      return made;
    },
  },
} as const;

async function page(api: APIRequestContext, path: string, params: Record<string, string>): Promise<Page> {
  const body: Page = await expectStatus(await api.get(`${path}?${new URLSearchParams(params)}`), 200);
  expect(Object.keys(body).sort()).toEqual(["data", "pagination"]);
  expect(Object.keys(body.pagination).sort()).toEqual(["next", "prev"]);
  return body;
}

/** Newest first: createdAt descending, ties by id descending. */
function newestFirst(items: Item[]): Item[] {
  return [...items].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
}

for (const list of Object.values(LISTS)) {
  test.describe(`GET ${list.path}`, () => {
    test("default limit is 20; limit 1..100 accepted", async ({ api }) => {
      test.setTimeout(60_000);
      const made = await list.make(api, 21);
      const total = 21;
      const first = await page(api, list.path, {});
      expect(first.data.length).toBe(20);
      expect(first.pagination.prev).toBeNull();
      expect(first.pagination.next).toEqual(expect.any(String));
      const rest = await page(api, list.path, { cursor: first.pagination.next! });
      expect(rest.data.length).toBe(total - 20);
      expect(rest.pagination.next).toBeNull();
      expect(rest.pagination.prev).toEqual(expect.any(String));

      expect((await page(api, list.path, { limit: "1" })).data.length).toBe(1);
      expect((await page(api, list.path, { limit: "100" })).data.length).toBe(total);
      const all = (await page(api, list.path, { limit: "100" })).data.map((x) => x.id);
      expect(new Set(all)).toEqual(new Set(made.map((x) => x.id)));
    });

    test("limit 0, 101, -1, abc, 1.5, empty → validation_error at limit", async ({ api }) => {
      for (const limit of ["0", "101", "-1", "abc", "1.5", "", "1e3", "20abc"]) {
        await expectError(await api.get(`${list.path}?limit=${encodeURIComponent(limit)}`), 400, "validation_error", { paths: ["limit"] });
      }
    });

    test("walking next to the end then prev back returns every item once, in order", async ({ api }) => {
      test.setTimeout(60_000);
      await list.make(api, 7);
      const everything = (await page(api, list.path, { limit: "100" })).data;
      expect(everything).toEqual(newestFirst(everything));
      const n = everything.length;

      const forward: Page[] = [];
      let cursor: string | null = null;
      do {
        const p = await page(api, list.path, { limit: "2", ...(cursor ? { cursor } : {}) });
        forward.push(p);
        cursor = p.pagination.next;
        expect(forward.length).toBeLessThan(50);
      } while (cursor);
      expect(forward.map((p) => p.data.length)).toEqual([...Array(Math.floor(n / 2)).fill(2), ...(n % 2 ? [1] : [])]);
      expect(forward[0]!.pagination.prev).toBeNull();
      for (const p of forward.slice(1)) expect(p.pagination.prev).toEqual(expect.any(String));
      expect(forward.flatMap((p) => p.data)).toEqual(everything);

      // Back from the last page: the same pages in reverse.
      const backward: Page[] = [forward.at(-1)!];
      cursor = forward.at(-1)!.pagination.prev;
      while (cursor) {
        const p = await page(api, list.path, { limit: "2", cursor });
        backward.push(p);
        cursor = p.pagination.prev;
        expect(backward.length).toBeLessThan(50);
      }
      expect(backward.map((p) => p.data.map((x) => x.id)).reverse()).toEqual(forward.map((p) => p.data.map((x) => x.id)));
      expect(backward.at(-1)!.pagination.prev).toBeNull();
      expect(backward.at(-1)!.pagination.next).toEqual(expect.any(String));
    });

    test("items created during a walk do not repeat or skip older items", async ({ api }) => {
      test.setTimeout(60_000);
      await list.make(api, 5);
      const before = (await page(api, list.path, { limit: "100" })).data.map((x) => x.id);
      const seen: string[] = [];
      let p = await page(api, list.path, { limit: "2" });
      seen.push(...p.data.map((x) => x.id));
      await list.make(api, 2); // newer than everything: they belong before the first page
      while (p.pagination.next) {
        p = await page(api, list.path, { limit: "2", cursor: p.pagination.next });
        seen.push(...p.data.map((x) => x.id));
      }
      expect(seen).toEqual(before);
    });

    test("garbled, forged and other lists' cursors → validation_error at cursor", async ({ api }) => {
      await list.make(api, 3);
      const first = await page(api, list.path, { limit: "1" });
      const good = first.pagination.next!;
      const [payload, mac] = good.split(".");
      const forgedPayload = (() => {
        try {
          const data = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
          data.id = `${data.id ?? "x"}0`;
          return Buffer.from(JSON.stringify(data)).toString("base64url");
        } catch {
          return `${payload}A`;
        }
      })();
      const bad = [
        "abc",
        "!!!",
        `${good}x`,
        good.slice(0, -2),
        `${forgedPayload}.${mac}`,
        Buffer.from(JSON.stringify({ t: new Date().toISOString(), id: "x", d: "next" })).toString("base64url"),
        "",
      ];
      for (const cursor of bad) {
        await expectError(await api.get(`${list.path}?cursor=${encodeURIComponent(cursor)}`), 400, "validation_error", {
          paths: ["cursor"],
        });
      }
      // A cursor of the other list.
      const otherPath = list.path === "/v1/groups" ? "/v1/designs" : "/v1/groups";
      await (list.path === "/v1/groups" ? LISTS.designs : LISTS.groups).make(api, 2);
      const foreign = (await page(api, otherPath, { limit: "1" })).pagination.next!;
      expect(foreign).toEqual(expect.any(String));
      await expectError(await api.get(`${list.path}?cursor=${encodeURIComponent(foreign)}`), 400, "validation_error", {
        paths: ["cursor"],
      });
      // The good cursor still works.
      expect((await page(api, list.path, { cursor: good, limit: "1" })).data.length).toBe(1);
    });

    test("a list shows only the caller's organization", async ({ api, newOrg, client }) => {
      const mine = await list.make(api, 2);
      const other = await client({ token: (await newOrg()).token });
      await list.make(other, 1);
      const listed = (await page(api, list.path, { limit: "100" })).data.map((x) => x.id);
      for (const m of mine) expect(listed).toContain(m.id);
      const theirs = (await page(other, list.path, { limit: "100" })).data.map((x) => x.id);
      for (const id of listed) expect(theirs).not.toContain(id);
    });
  });
}
