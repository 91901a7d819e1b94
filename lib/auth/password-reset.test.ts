import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "../core/errors";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("password-reset");

const { db } = await import("../db");
const { authenticateUser, signUp } = await import("../accounts/service");
const reset = await import("./password-reset");
const { changePassword } = await import("./password-change");
const sessions = await import("../accounts/sessions");
const { signInThrottle } = await import("./sign-in-throttle");

let addressCounter = 0;
/** Each request from an address of its own, so the per-address limit is only met where a test means to. */
const freshAddress = () => `198.51.100.${++addressCounter}`;

async function newAccount() {
  const email = `grace.${Math.random().toString(36).slice(2)}@example.com`;
  const { userId } = await signUp(
    { name: "Grace <Hopper>", email, password: "correct horse battery", organizationName: "Org" },
    { clientAddress: `test-${Math.random()}` },
  );
  return { userId, email };
}

/** The token in the newest reset email to `email`, read back from the outbox row as the recipient would. */
async function tokenMailedTo(email: string): Promise<string> {
  const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email }, orderBy: { createdAt: "desc" } });
  const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeTruthy();
  return decodeURIComponent(token!);
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("asking for a reset link", () => {
  it("emails a link for an account, through the outbox, as nobody's organization; the token is stored only as its SHA-256", async () => {
    const { userId, email } = await newAccount();
    await reset.requestPasswordReset({ email: email.toUpperCase(), clientAddress: freshAddress() });
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail).toMatchObject({ organizationId: null, credentialId: null, status: "queued", subject: "Reset your password" });
    expect(mail.text).toContain("within 60 minutes");
    // The name is the person's own text: escaped in the HTML body.
    expect(mail.html).toContain("Grace &lt;Hopper&gt;");
    const token = await tokenMailedTo(email);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const rows = await db().passwordReset.findMany({ where: { userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(3600_000);
  });

  it("answers the same for an email no account has, and writes nothing", async () => {
    const mails = await db().emailOutbox.count();
    const links = await db().passwordReset.count();
    await expect(
      reset.requestPasswordReset({ email: "nobody.at.all@example.com", clientAddress: freshAddress() }),
    ).resolves.toBeUndefined();
    expect(await db().emailOutbox.count()).toBe(mails);
    expect(await db().passwordReset.count()).toBe(links);
  });

  it("is limited per email (3 at once) and per address (10 at once), for unknown emails too", async () => {
    const { email } = await newAccount();
    for (let i = 0; i < 3; i++) await reset.requestPasswordReset({ email, clientAddress: freshAddress() });
    const limited = await rejection(reset.requestPasswordReset({ email, clientAddress: freshAddress() }));
    expect(limited.code).toBe("rate_limited");
    expect(limited.message).toBe(reset.TOO_MANY_RESET_REQUESTS);
    expect(await db().emailOutbox.count({ where: { toAddress: email } })).toBe(3);

    const address = freshAddress();
    for (let i = 0; i < 10; i++) await reset.requestPasswordReset({ email: `unknown.${i}@example.com`, clientAddress: address });
    expect((await rejection(reset.requestPasswordReset({ email: "unknown.x@example.com", clientAddress: address }))).code).toBe(
      "rate_limited",
    );
  });
});

describe("using a reset link", () => {
  it("sets the password once: the old password and the link stop working, every session ends, the email loses the link", async () => {
    const { userId, email } = await newAccount();
    const session = await sessions.startDashboardSession(userId, 0);
    await reset.requestPasswordReset({ email, clientAddress: freshAddress() });
    const token = await tokenMailedTo(email);
    expect(await reset.resetLinkIsValid(token)).toBe(true);

    await reset.resetPassword({ token, newPassword: "a brand new secret" });
    expect(await authenticateUser(email, "a brand new secret")).toMatchObject({ id: userId });
    expect(await authenticateUser(email, "correct horse battery")).toBeNull();
    expect(await sessions.isSessionActive(session, userId)).toBe(false);
    expect(await reset.resetLinkIsValid(token)).toBe(false);
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail.text).not.toContain(token);
    expect(mail.html).not.toContain(token);
    expect(mail.status).toBe("cancelled");

    const again = await rejection(reset.resetPassword({ token, newPassword: "yet another secret" }));
    expect(again).toMatchObject({ code: "not_found", message: reset.INVALID_RESET_LINK });
    expect(await authenticateUser(email, "yet another secret")).toBeNull();
  });

  it("works once when used twice at the same moment", async () => {
    const { email } = await newAccount();
    await reset.requestPasswordReset({ email, clientAddress: freshAddress() });
    const token = await tokenMailedTo(email);
    const outcomes = await Promise.allSettled([
      reset.resetPassword({ token, newPassword: "first of two secrets" }),
      reset.resetPassword({ token, newPassword: "second of two secrets" }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const won = outcomes[0].status === "fulfilled" ? "first of two secrets" : "second of two secrets";
    expect(await authenticateUser(email, won)).not.toBeNull();
  });

  it("expires after an hour", async () => {
    const { email } = await newAccount();
    const asked = new Date();
    await reset.requestPasswordReset({ email, clientAddress: freshAddress() }, asked);
    const token = await tokenMailedTo(email);
    const later = new Date(asked.getTime() + 3600_000);
    expect(await reset.resetLinkIsValid(token, new Date(later.getTime() - 1))).toBe(true);
    expect(await reset.resetLinkIsValid(token, later)).toBe(false);
    expect((await rejection(reset.resetPassword({ token, newPassword: "too late a secret" }, later))).code).toBe("not_found");
    expect(await authenticateUser(email, "correct horse battery")).not.toBeNull();
  });

  it("stops working when a newer link is asked for, or the password is changed", async () => {
    const { userId, email } = await newAccount();
    await reset.requestPasswordReset({ email, clientAddress: freshAddress() });
    const first = await tokenMailedTo(email);
    await reset.requestPasswordReset({ email, clientAddress: freshAddress() });
    const second = await tokenMailedTo(email);
    expect(second).not.toBe(first);
    expect(await reset.resetLinkIsValid(first)).toBe(false);
    expect(await reset.resetLinkIsValid(second)).toBe(true);
    // The replaced email, not sent yet, is not sent at all, and no longer holds its link.
    const replaced = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email, text: { not: { contains: second } } } });
    expect(replaced.status).toBe("cancelled");
    expect(replaced.text).not.toContain(first);

    const session = await sessions.startDashboardSession(userId, await sessions.currentSessionVersion(userId));
    await changePassword(
      { userId, sessionId: session, clientAddress: freshAddress() },
      { currentPassword: "correct horse battery", newPassword: "changed in settings" },
    );
    expect(await reset.resetLinkIsValid(second)).toBe(false);
  });

  it("refuses a made-up or empty token, and a new password that breaks the sign-up rule, changing nothing", async () => {
    const { email } = await newAccount();
    for (const token of ["", "made-up", "x".repeat(500)]) {
      expect(await reset.resetLinkIsValid(token)).toBe(false);
      expect((await rejection(reset.resetPassword({ token, newPassword: "long enough secret" }))).code).toBe("not_found");
    }
    const { PasswordResetInput } = await import("../accounts/schema");
    const parsed = PasswordResetInput.safeParse({ token: "t", newPassword: "short" });
    expect(parsed.success).toBe(false);
    expect(await authenticateUser(email, "correct horse battery")).not.toBeNull();
  });

  it("forgets the sign-in throttling counted for the email", async () => {
    const { email } = await newAccount();
    const address = freshAddress();
    while ((await signInThrottle().admit(address, email)).allowed);
    await reset.requestPasswordReset({ email, clientAddress: freshAddress() });
    await reset.resetPassword({ token: await tokenMailedTo(email), newPassword: "after the attack" });
    expect((await signInThrottle().admit(address, email)).allowed).toBe(true);
  });
});
