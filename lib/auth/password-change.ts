// Changing the password from the dashboard: the current password is required (a borrowed or stolen
// session alone cannot take the account over), the new one follows the sign-up rule, and every other
// session of the account ends while the browser that made the change stays signed in.
import { ApiError, invalidField } from "../core/errors";
import { hashPassword, verifyPassword } from "../accounts/password";
import { signInThrottle } from "./sign-in-throttle";
import { db } from "../db";
import { log } from "../log";
import { retireResetLinksOf } from "./password-reset";
import type { ChangePasswordInput } from "../accounts/schema";
import { endSessionsOf } from "../accounts/sessions";

export const TOO_MANY_PASSWORD_ATTEMPTS = "Too many wrong passwords. Wait a few minutes and try again.";

export async function changePassword(
  who: { userId: string; sessionId: string; clientAddress: string },
  input: ChangePasswordInput,
): Promise<void> {
  const user = await db().user.findUnique({ where: { id: who.userId }, select: { email: true, passwordHash: true } });
  if (!user) throw new ApiError("unauthorized", "Your session has ended. Sign in again.");
  if (!user.passwordHash) {
    throw invalidField(
      "currentPassword",
      "cannot be checked: your account has no password yet. Use “Forgot password?” on the sign-in page to set one",
    );
  }
  // Guessing the current password from a stolen session counts like guessing it at sign-in. A signed-in
  // session is a browser that signed in before: while the account is guarded it may still try, as one device.
  const session = async () => `session:${who.sessionId}`;
  if (!(await signInThrottle().admit(who.clientAddress, user.email, session)).allowed)
    throw new ApiError("rate_limited", TOO_MANY_PASSWORD_ATTEMPTS);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await signInThrottle().recordFailure(user.email);
    throw invalidField("currentPassword", "is not correct");
  }
  if (input.newPassword === input.currentPassword) throw invalidField("newPassword", "must be different from your current password");
  const passwordHash = await hashPassword(input.newPassword);
  await db().$transaction(async (tx) => {
    // Conditional on the hash just checked: of two changes at once, the second must prove the new password.
    const changed = await tx.user.updateMany({ where: { id: who.userId, passwordHash: user.passwordHash }, data: { passwordHash } });
    if (changed.count !== 1) throw invalidField("currentPassword", "is not correct");
    await endSessionsOf(tx, who.userId, who.sessionId);
    await retireResetLinksOf(tx, who.userId);
  });
  log.info("password_changed", { userId: who.userId });
  await signInThrottle().forgetEmail(user.email);
}
