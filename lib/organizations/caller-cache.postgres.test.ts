// The caller cache on PostgreSQL (caller-cache.ts): runs when TEST_POSTGRES_URL names a server (CI starts
// one), on a scratch database of its own. "Another process" is a pg connection of the test's own, which
// writes as the CLI or another web process would.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallerCache } from "./caller-cache";
import type { Caller } from "./service";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not ${what} after 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!serverUrl)("API token callers kept per process, on PostgreSQL", () => {
  let service: typeof import("./service");
  let cache: () => CallerCache<Caller>;
  let other: pg.Client;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    const scratch = await postgresTestDatabase(serverUrl!, "cis_unit_callers");
    close = scratch.finish;
    service = await import("./service");
    const { processSlot } = await import("../core/process-singleton");
    cache = () =>
      processSlot<CallerCache<Caller>>("organizations.callerCache").current ?? expect.fail("the service has not made its cache");
    other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    close = async () => {
      cache().stop();
      await other.end();
      await scratch.finish();
    };
  });

  afterAll(() => close());

  async function newCaller(slug: string) {
    const org = await service.createOrganization({ slug, plan: "free" });
    const created = await service.createApiToken(org.id, "test");
    expect(await service.authenticateApiToken(created.token)).toMatchObject({ organization: { id: org.id, slug, plan: "free" } });
    await eventually(async () => cache().active, Boolean, "listening");
    return { org, token: created.token, prefix: created.prefix };
  }

  it("answers from the cache once listening: a change made without telling anyone is not seen", async () => {
    const { token, prefix } = await newCaller("kept");
    expect(await service.authenticateApiToken(token)).not.toBeNull(); // kept now
    // Replica mode skips triggers: the revocation is committed but nobody is told.
    await other.query(`SET session_replication_role = replica`);
    await other.query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "prefix" = $1`, [prefix]);
    await other.query(`SET session_replication_role = DEFAULT`);
    expect(await service.authenticateApiToken(token)).not.toBeNull();
    // The notice is what makes the process forget.
    await other.query(`NOTIFY cis_callers_changed`);
    await eventually(
      () => service.authenticateApiToken(token),
      (caller) => caller === null,
      "refused",
    );
  });

  it("does not keep what a lookup read before a notice arrived", async () => {
    const { token } = await newCaller("raced");
    const hash = (await import("./api-tokens")).hashApiToken(token);
    const mark = cache().mark();
    const read = await service.authenticateApiToken(token); // read before the change is told
    await other.query(`NOTIFY cis_callers_changed`);
    await eventually(
      async () => cache().mark(),
      (now) => now !== mark,
      "told",
    );
    expect(cache().active).toBe(true);
    cache().keep(hash, { caller: read!, lastUsedAt: Date.now() }, mark);
    expect(cache().get(hash)).toBeUndefined();
  });

  it("refuses a token revoked by another process, and sees another process change the organization's plan and name", async () => {
    const { org, token, prefix } = await newCaller("revoked");
    expect(await service.authenticateApiToken(token)).not.toBeNull();
    await other.query(`UPDATE "Organization" SET "plan" = 'premium', "name" = 'Renamed' WHERE "id" = $1`, [org.id]);
    const changed = await eventually(
      () => service.authenticateApiToken(token),
      (caller) => caller?.organization.plan === "premium",
      "premium",
    );
    expect(changed?.organization.name).toBe("Renamed");
    await other.query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "prefix" = $1`, [prefix]);
    await eventually(
      () => service.authenticateApiToken(token),
      (caller) => caller === null,
      "refused",
    );
  });

  it("refuses a token whose organization another process deleted", async () => {
    const { org, token } = await newCaller("deleted");
    expect(await service.authenticateApiToken(token)).not.toBeNull();
    await other.query(`DELETE FROM "Organization" WHERE "id" = $1`, [org.id]);
    await eventually(
      () => service.authenticateApiToken(token),
      (caller) => caller === null,
      "refused",
    );
  });

  it("tells nobody when only a token's last use changes, and once per transaction however many rows change", async () => {
    const { org } = await newCaller("quiet");
    await service.createApiToken(org.id, "second");
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const notices: string[] = [];
    // Each process's probes travel on the channel too (payload "probe:…"); the triggers' notices have none.
    listener.on("notification", (n) => {
      if (!n.payload) notices.push(n.channel);
    });
    try {
      await listener.query(`LISTEN cis_callers_changed`);
      await other.query(`UPDATE "ApiToken" SET "lastUsedAt" = now() WHERE "organizationId" = $1`, [org.id]);
      await other.query(`UPDATE "Organization" SET "logoMimeType" = NULL WHERE "id" = $1`, [org.id]);
      await other.query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "organizationId" = $1`, [org.id]);
      await eventually(
        async () => notices.length,
        (n) => n > 0,
        "told",
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(notices).toEqual(["cis_callers_changed"]);
    } finally {
      await listener.end();
    }
  });

  it("stays off while its probe does not come back (a pooler that accepts LISTEN but passes no notices on), and turns off when probes stop arriving", async () => {
    const { CallerCache } = await import("./caller-cache");
    const url = process.env.DATABASE_URL!;
    const timing = { everyMs: 100, timeoutMs: 150, freshMs: 300 };
    const deaf = new CallerCache<string>(url, async () => undefined, timing);
    let delivering = true;
    const flaky = new CallerCache<string>(
      url,
      async (channel, payload) => {
        if (delivering) await other.query("SELECT pg_notify($1, $2)", [channel, payload]);
      },
      timing,
    );
    try {
      await eventually(async () => flaky.active, Boolean, "listening");
      flaky.keep("hash", { caller: "kept", lastUsedAt: 0 }, flaky.mark());
      expect(flaky.get("hash")?.caller).toBe("kept");
      deaf.keep("hash", { caller: "kept", lastUsedAt: 0 }, deaf.mark());
      expect(deaf.active).toBe(false);
      expect(deaf.get("hash")).toBeUndefined();
      delivering = false;
      await eventually(
        async () => flaky.active,
        (active) => !active,
        "off",
      );
      expect(flaky.get("hash")).toBeUndefined();
      // Another process's probe is not a change: nothing is forgotten.
      delivering = true;
      await eventually(async () => flaky.active, Boolean, "listening again");
      flaky.keep("hash", { caller: "kept again", lastUsedAt: 0 }, flaky.mark());
      await other.query("SELECT pg_notify('cis_callers_changed', 'probe:another-process')");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(flaky.get("hash")?.caller).toBe("kept again");
      expect(deaf.active).toBe(false);
    } finally {
      deaf.stop();
      flaky.stop();
    }
  });

  it("stops answering from the cache within its freshness once probes stop coming back, before it gives the connection up", async () => {
    const { CallerCache } = await import("./caller-cache");
    let delivering = true;
    const silent = new CallerCache<string>(
      process.env.DATABASE_URL!,
      async (channel, payload) => {
        if (delivering) await other.query("SELECT pg_notify($1, $2)", [channel, payload]);
      },
      { everyMs: 50, timeoutMs: 60_000, freshMs: 300 },
    );
    try {
      await eventually(async () => silent.active, Boolean, "listening");
      silent.keep("hash", { caller: "kept", lastUsedAt: 0 }, silent.mark());
      delivering = false; // as a connection that died without telling anyone
      const stoppedAt = Date.now();
      await eventually(
        async () => silent.get("hash"),
        (found) => found === undefined,
        "off",
      );
      expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    } finally {
      silent.stop();
    }
  });

  it("counts a probe's freshness from when it was sent: one that took longer to send than the freshness does not turn the cache on", async () => {
    const { CallerCache } = await import("./caller-cache");
    const slow = new CallerCache<string>(
      process.env.DATABASE_URL!,
      async (channel, payload) => {
        await new Promise((resolve) => setTimeout(resolve, 400)); // a busy pool
        await other.query("SELECT pg_notify($1, $2)", [channel, payload]);
      },
      { everyMs: 50, timeoutMs: 60_000, freshMs: 300 },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(slow.active).toBe(false);
    } finally {
      slow.stop();
    }
  });

  it("replaces a listening connection whose probes do not come back", async () => {
    const { CallerCache } = await import("./caller-cache");
    const listeners = async () =>
      (
        await other.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE application_name = 'cis caller notices' AND query = 'LISTEN cis_callers_changed'`,
        )
      ).rows.map((r) => r.pid);
    const before = new Set(await listeners());
    const deaf = new CallerCache<string>(process.env.DATABASE_URL!, async () => undefined, { everyMs: 50, timeoutMs: 100, freshMs: 300 });
    try {
      const first = (await eventually(listeners, (pids) => pids.some((pid) => !before.has(pid)), "listening")).find(
        (pid) => !before.has(pid),
      )!;
      await eventually(listeners, (pids) => !pids.includes(first) && pids.some((pid) => !before.has(pid)), "replaced");
    } finally {
      deaf.stop();
    }
  });

  it("does not keep what a lookup read before the connection first listened", async () => {
    const { CallerCache } = await import("./caller-cache");
    const fresh = new CallerCache<string>(
      process.env.DATABASE_URL!,
      async (channel, payload) => {
        await other.query("SELECT pg_notify($1, $2)", [channel, payload]);
      },
      { everyMs: 50, timeoutMs: 1_000, freshMs: 2_000 },
    );
    try {
      const mark = fresh.mark(); // a lookup begins; changes before LISTEN would never be told
      await eventually(async () => fresh.active, Boolean, "listening");
      fresh.keep("hash", { caller: "read before", lastUsedAt: 0 }, mark);
      expect(fresh.get("hash")).toBeUndefined();
    } finally {
      fresh.stop();
    }
  });

  it("reads the database while its connection is lost, and listens again with nothing kept from before", async () => {
    const { token, prefix } = await newCaller("lost");
    expect(await service.authenticateApiToken(token)).not.toBeNull();
    await other.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN cis_callers_changed'`,
    );
    await eventually(
      async () => cache().active,
      (active) => !active,
      "lost",
    );
    // Unnoticed change while the connection is down: read from the database, so seen at once.
    await other.query(`SET session_replication_role = replica`);
    await other.query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "prefix" = $1`, [prefix]);
    await other.query(`SET session_replication_role = DEFAULT`);
    expect(await service.authenticateApiToken(token)).toBeNull();
    await eventually(async () => cache().active, Boolean, "listening again");
    expect(await service.authenticateApiToken(token)).toBeNull();
  });
});
