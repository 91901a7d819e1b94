// A dashboard sign-in with email and password, start to end: the throttle decides whether the
// password may be checked at all (sign-in-throttle.ts); a wrong one is counted for the email; an
// attempt refused because the account is guarded asks for an emailed sign-in link instead. The answer
// for a refused attempt never depends on whether the account exists or on the password typed.
import { authenticateUser, normalizeAccountEmail } from "../accounts/service";
import { requestSignInLink, type LinkUser } from "../accounts/sign-in-link";
import { db } from "../db";
import { errorSummary, log } from "../log";
import { readDeviceCookie } from "./sign-in-device";
import { signInThrottle } from "./sign-in-throttle";

export type PasswordSignInResult =
  | { outcome: "signed-in"; user: LinkUser }
  | { outcome: "wrong-password" }
  /** Refused before the password was checked: too many attempts from this address or for this pair. */
  | { outcome: "too-many-attempts" }
  /** Refused before the password was checked: the account is guarded; a sign-in link was asked for. */
  | { outcome: "use-emailed-link" };

export async function signInWithPassword(input: {
  email: string;
  password: string;
  clientAddress: string;
  deviceCookie: string | null;
}): Promise<PasswordSignInResult> {
  const email = normalizeAccountEmail(input.email);
  const verdict = await signInThrottle().admit(input.clientAddress, email, () => knownDeviceFor(email, input.deviceCookie));
  if (!verdict.allowed) {
    log.warn("sign_in_rate_limited", { address: input.clientAddress, limitedBy: verdict.limitedBy });
    if (verdict.limitedBy !== "guarded") return { outcome: "too-many-attempts" };
    // Not awaited: whether an email goes out (an account has the address, the link limit allows)
    // must not show in how long the refusal takes.
    requestSignInLink({ email }).catch((error: unknown) => log.error("sign_in_link_failed", errorSummary(error)));
    return { outcome: "use-emailed-link" };
  }
  const user = await authenticateUser(email, input.password);
  if (!user) {
    await signInThrottle().recordWrongPassword(email);
    return { outcome: "wrong-password" };
  }
  return { outcome: "signed-in", user };
}

/** The browser's key when its device cookie is genuine and names the account that has `email`. */
async function knownDeviceFor(email: string, cookie: string | null): Promise<string | null> {
  const device = readDeviceCookie(cookie);
  if (!device) return null;
  const user = await db().user.findUnique({ where: { email }, select: { id: true, sessionVersion: true } });
  // A cookie set before "sign out everywhere", a password change or a reset no longer vouches for its browser.
  return user?.id === device.userId && user.sessionVersion === device.sessionVersion ? device.deviceKey : null;
}
