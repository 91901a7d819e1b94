import { describe, expect, it } from "vitest";
import { ApiError } from "../core/errors";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("password-change");

const { db } = await import("../db");
const { authenticateUser, signUp, userForVerifiedEmail, userHasPassword } = await import("../accounts/service");
const { changePassword, TOO_MANY_PASSWORD_ATTEMPTS } = await import("./password-change");
const { ChangePasswordInput } = await import("../accounts/schema");
const sessions = await import("../accounts/sessions");
const { signInThrottle } = await import("./sign-in-throttle");

let addressCounter = 0;
const freshAddress = () => `203.0.113.${++addressCounter}`;

async function signedIn() {
  const email = `ada.${Math.random().toString(36).slice(2)}@example.com`;
  const { userId } = await signUp(
    { name: "Ada", email, password: "correct horse battery", organizationName: "Org" },
    { clientAddress: `test-${Math.random()}` },
  );
  const here = await sessions.startDashboardSession(userId, 0);
  const elsewhere = await sessions.startDashboardSession(userId, 0);
  return { userId, email, here, elsewhere };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("changing the password", () => {
  it("needs the current password, and then ends every other session while this one goes on", async () => {
    const { userId, email, here, elsewhere } = await signedIn();
    await changePassword(
      { userId, sessionId: here, clientAddress: freshAddress() },
      { currentPassword: "correct horse battery", newPassword: "a better passphrase" },
    );
    expect(await authenticateUser(email, "a better passphrase")).toMatchObject({ id: userId });
    expect(await authenticateUser(email, "correct horse battery")).toBeNull();
    expect(await sessions.isSessionActive(here, userId)).toBe(true);
    expect(await sessions.isSessionActive(elsewhere, userId)).toBe(false);
  });

  it("refuses a wrong current password by name, and changes nothing", async () => {
    const { userId, email, here, elsewhere } = await signedIn();
    const before = await db().user.findUniqueOrThrow({ where: { id: userId } });
    const error = await rejection(
      changePassword(
        { userId, sessionId: here, clientAddress: freshAddress() },
        { currentPassword: "not my password", newPassword: "a better passphrase" },
      ),
    );
    expect(error.code).toBe("validation_error");
    expect(error.details).toEqual([{ path: "currentPassword", message: "is not correct" }]);
    const after = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.sessionVersion).toBe(before.sessionVersion);
    expect(await sessions.isSessionActive(elsewhere, userId)).toBe(true);
    expect(await authenticateUser(email, "correct horse battery")).not.toBeNull();
  });

  it("refuses a new password equal to the current one, or one that breaks the sign-up rule", async () => {
    const { userId, here } = await signedIn();
    const same = await rejection(
      changePassword(
        { userId, sessionId: here, clientAddress: freshAddress() },
        { currentPassword: "correct horse battery", newPassword: "correct horse battery" },
      ),
    );
    expect(same.details).toEqual([{ path: "newPassword", message: "must be different from your current password" }]);
    const short = ChangePasswordInput.safeParse({ currentPassword: "correct horse battery", newPassword: "short" });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]).toMatchObject({ path: ["newPassword"], message: "must be at least 10 characters" });
  });

  it("counts wrong current passwords like wrong sign-ins: a stolen session cannot guess fast", async () => {
    const { userId, here } = await signedIn();
    const address = freshAddress();
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push(
        (
          await rejection(
            changePassword(
              { userId, sessionId: here, clientAddress: address },
              { currentPassword: `guess ${i}`, newPassword: "a better passphrase" },
            ),
          )
        ).code,
      );
    }
    expect(codes).toEqual([...Array(5).fill("validation_error"), "rate_limited"]);
    const limited = await rejection(
      changePassword(
        { userId, sessionId: here, clientAddress: address },
        { currentPassword: "correct horse battery", newPassword: "a better passphrase" },
      ),
    );
    expect(limited.message).toBe(TOO_MANY_PASSWORD_ATTEMPTS);
  });

  it("clears the sign-in throttling counted for the email", async () => {
    const { userId, email, here } = await signedIn();
    const attacker = freshAddress();
    while ((await signInThrottle().admit(attacker, email)).allowed);
    await changePassword(
      { userId, sessionId: here, clientAddress: freshAddress() },
      { currentPassword: "correct horse battery", newPassword: "a better passphrase" },
    );
    expect((await signInThrottle().admit(attacker, email)).allowed).toBe(true);
  });

  it("is not offered to an account made by GitHub or Google sign-in, which has no password", async () => {
    const { id } = await userForVerifiedEmail({ email: `oauth.${Math.random().toString(36).slice(2)}@example.com`, name: "Oauth Person" });
    expect(await userHasPassword(id)).toBe(false);
    const session = await sessions.startDashboardSession(id, 0);
    const error = await rejection(
      changePassword(
        { userId: id, sessionId: session, clientAddress: freshAddress() },
        { currentPassword: "anything", newPassword: "a better passphrase" },
      ),
    );
    expect(error.details?.[0]?.path).toBe("currentPassword");
  });
});
