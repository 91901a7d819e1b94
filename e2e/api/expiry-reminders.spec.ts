// Expiry reminders and the credential.expiring / credential.expired webhook events (docs/api.md, Groups
// and Webhooks). Time is made short by dates, not by a clock switch: a credential expiring N days from
// today in a group that reminds N days before is due for its reminder today, and one whose expiry date
// was yesterday is due for its expired notice today; the server's background loop picks both up within
// seconds. The webhook test runs a server of its own with WEBHOOK_ALLOW_PRIVATE=1 so a receiver on this
// machine stands in for the internet, and reads the reminder email from its DATA_DIR/mail folder.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { addDays, newDataDir, newGroup, startOwnServer, todayUtc, uniqueEmail, type OwnServer } from "../support/credentials";
import { emlFilesContaining, waitFor } from "../support/mail";
import { createOrgs } from "../support/state";
import { WebhookReceiver } from "../support/webhook-receiver";

test.describe("a group's expiryReminderDays", () => {
  test("optional, null by default, 1..365 or null; a bad value is named and changes nothing", async ({ api }) => {
    const plain = await newGroup(api, { name: "No reminder" });
    expect(plain.expiryReminderDays).toBeNull();
    const group = await newGroup(api, { name: "Reminded", expiryReminderDays: 30 });
    expect(group.expiryReminderDays).toBe(30);
    expect((await expectStatus(await api.get(`/v1/groups/${group.id}`), 200)).expiryReminderDays).toBe(30);
    for (const bad of [0, 366, 1.5, "30", true]) {
      await expectError(await api.patch(`/v1/groups/${group.id}`, { data: { expiryReminderDays: bad } }), 400, "validation_error", {
        paths: ["expiryReminderDays"],
      });
      await expectError(
        await api.post("/v1/groups", { data: { name: "Bad", designIds: group.designIds, expiryReminderDays: bad } }),
        400,
        "validation_error",
        { paths: ["expiryReminderDays"] },
      );
    }
    expect((await expectStatus(await api.get(`/v1/groups/${group.id}`), 200)).expiryReminderDays).toBe(30);
    const edges = await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { expiryReminderDays: 365 } }), 200);
    expect(edges.expiryReminderDays).toBe(365);
    const off = await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { expiryReminderDays: null } }), 200);
    expect(off.expiryReminderDays).toBeNull();
  });
});

test.describe("expiry notices", () => {
  let server: OwnServer | undefined;
  let receiver: WebhookReceiver | undefined;

  test.afterEach(async ({}, testInfo) => {
    if (server && testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach("own-server.log", { body: server.output(), contentType: "text/plain" });
    await server?.stop();
    await receiver?.stop();
    server = receiver = undefined;
  });

  test("credential.expiring the day the reminder goes (with its email), credential.expired the day after expiry; each once", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.setTimeout(240_000);
    const databaseUrl = await scratchDatabase();
    const dataDir = newDataDir(e2eState.runDir, "expiry");
    const [org] = await createOrgs({ databaseUrl, dataDir }, `expiry-${randomBytes(3).toString("hex")}`, 0, 1);
    receiver = new WebhookReceiver();
    await receiver.start();
    server = await startOwnServer(
      { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: "1", WEBHOOK_RETRY_BASE_SECONDS: "1" },
      path.join(e2eState.runDir, `own-expiry-${testInfo.project.name}.log`),
    );
    const api = await client({ baseURL: server.baseURL, token: org!.token });
    const endpoint = await expectStatus(
      await api.post("/v1/webhooks", { data: { url: `${receiver.url}/ok/expiry`, events: ["credential.expiring", "credential.expired"] } }),
      201,
    );
    receiver.expectSecrets("/ok/expiry", endpoint.secret);

    const group = await newGroup(api, {
      name: "First Aid <Level 2>",
      expiryReminderDays: 7,
      learningEventUrl: "https://learn.example.com/renew",
    });
    const email = uniqueEmail("expiring");
    const expiring = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", {
        data: { groupId: group.id, recipient: { name: "Ada <i>Lovelace</i>", email }, expiryDate: addDays(todayUtc(), 7) },
      }),
      201,
    );
    const expired = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", {
        data: {
          groupId: group.id,
          recipient: { name: "Grace Hopper", email: uniqueEmail("expired") },
          issueDate: addDays(todayUtc(), -30),
          expiryDate: addDays(todayUtc(), -1),
        },
      }),
      201,
    );
    // Expiring in 30 days: its reminder is 23 days away, nothing today.
    const later = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", {
        data: { groupId: group.id, recipient: { name: "Later", email: uniqueEmail("later") }, expiryDate: addDays(todayUtc(), 30) },
      }),
      201,
    );

    const events = () => receiver!.to("/ok/expiry").map((d) => d.event!);
    await waitFor("both events", () => events().length >= 2 && events(), 60_000, 250);
    const [first, second] = [events().find((e) => e.type === "credential.expiring"), events().find((e) => e.type === "credential.expired")];
    expect(first?.data.id).toBe(expiring.id);
    expect(first?.data.status).toBe("issued");
    expect(second?.data.id).toBe(expired.id);
    expect(second?.data.status).toBe("expired");

    const reminder = await waitFor(
      "the reminder email",
      () => emlFilesContaining(path.join(dataDir, "mail"), "https://learn.example.com/renew").find((m) => m.mail.to.includes(email)),
      30_000,
      250,
    );
    expect(reminder.mail.subject).toContain("First Aid <Level 2>");
    expect(reminder.mail.html).toContain("Ada &lt;i&gt;Lovelace&lt;/i&gt;");
    expect(reminder.mail.html).not.toContain("<i>Lovelace");
    expect(reminder.mail.text).toContain(`/credentials/${expiring.publicId}?recipient=true`);
    expect(reminder.mail.html).toContain('href="https://learn.example.com/renew"');

    // Some seconds more: still one event each, none for the credential not due.
    await new Promise((r) => setTimeout(r, 7_000));
    expect(events().filter((e) => e.type === "credential.expiring")).toHaveLength(1);
    expect(events().filter((e) => e.type === "credential.expired")).toHaveLength(1);
    expect(events().some((e) => e.data.id === later.id)).toBe(false);
    expect(
      emlFilesContaining(path.join(dataDir, "mail"), "https://learn.example.com/renew").filter((m) => m.mail.to.includes(email)),
    ).toHaveLength(1);
  });
});
