// Dashboard accounts: people (User) who are members of one organization. Sign-up creates the person,
// an organization and the owner membership together; sign-in checks a password. Every dashboard
// request resolves the member again from the database, so a removed membership ends access at once.
import { randomBytes } from "node:crypto";
import { ApiError, invalidField } from "../core/errors";
import { db } from "../db";
import { addStarterDesigns as createStarterDesigns } from "../designs/starter";
import { errorSummary, log } from "../log";
import { newId } from "../db/ids";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./password";
import { addressSubject, exactBuckets } from "../rate-limit/shared-rate-limit";
import type { OrganizationRow } from "../organizations/service";
import type { SignUpInput } from "./schema";

export type Member = {
  user: { id: string; name: string; email: string };
  role: string;
  organization: OrganizationRow;
};

export function normalizeAccountEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A slug from the organization's name, made unique with a short suffix when taken. */
async function freeSlug(name: string): Promise<string> {
  const base =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "org";
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${randomBytes(attempt < 5 ? 3 : 6).toString("hex")}`;
    if (!(await db().organization.findUnique({ where: { slug }, select: { id: true } }))) return slug;
  }
}

/**
 * A new organization starts with the starter designs, so that a person can go from sign-up to a sent
 * certificate without drawing one first. Best effort: the account works without them.
 */
async function addStarterDesigns(organization: { id: string; name: string }): Promise<void> {
  try {
    await createStarterDesigns(organization);
  } catch (error) {
    log.error("starter_designs_failed", { organizationId: organization.id, ...errorSummary(error) });
  }
}

/**
 * Per client address (an IPv6 one by its /64, which one host can hold whole): 10 sign-ups at once,
 * then 10 an hour. Each makes an organization with its starter designs, so a script signing up in a
 * loop fills the database; a classroom behind one address still fits. Kept like the sign-in limits (lib/rate-limit/shared-rate-limit.ts: every process counts the same
 * attempts on PostgreSQL or Redis). Attempts count, not only accounts made: "this email is taken" answers
 * must not be a free oracle for which addresses have accounts.
 */
const SIGN_UP_BY_ADDRESS = { name: "signup.address", perSecond: 10 / 3600, burst: 10 };

async function checkSignUpLimit(clientAddress: string): Promise<void> {
  const state = await exactBuckets(SIGN_UP_BY_ADDRESS).take(addressSubject(clientAddress));
  if (state.allowed) return;
  log.warn("sign_up_rate_limited", { address: clientAddress });
  const minutes = Math.max(1, Math.ceil(state.retryAfterSeconds / 60));
  throw new ApiError(
    "rate_limited",
    `Too many sign-ups from your network. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    {
      headers: { "Retry-After": String(state.retryAfterSeconds) },
    },
  );
}

/** A new account from the sign-up form; `clientAddress` is who asked (lib/auth/client-address.ts). */
export async function signUp(input: SignUpInput, request: { clientAddress: string }): Promise<{ userId: string; organizationId: string }> {
  await checkSignUpLimit(request.clientAddress);
  const created = await createAccount(input, await hashPassword(input.password));
  await addStarterDesigns({ id: created.organizationId, name: input.organizationName });
  return created;
}

/** A user (with a password hash, or none for OAuth-only accounts), an organization and the owner membership. */
async function createAccount(
  input: Omit<SignUpInput, "password">,
  passwordHash: string | null,
): Promise<{ userId: string; organizationId: string }> {
  const email = normalizeAccountEmail(input.email);
  const emailTaken = () => invalidField("email", "an account with this email already exists; sign in instead");
  for (let attempt = 1; ; attempt++) {
    const slug = await freeSlug(input.organizationName);
    try {
      return await db().$transaction(async (tx) => {
        if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw emailTaken();
        const user = await tx.user.create({
          data: { id: newId("usr"), email, name: input.name, passwordHash, emailVerifiedAt: passwordHash ? null : new Date() },
        });
        const organization = await tx.organization.create({ data: { id: newId("org"), slug, name: input.organizationName, plan: "free" } });
        await tx.membership.create({ data: { id: newId("mem"), userId: user.id, organizationId: organization.id, role: "owner" } });
        return { userId: user.id, organizationId: organization.id };
      });
    } catch (error) {
      // A concurrent sign-up took the email or the slug first: the unique indexes decide.
      if ((error as { code?: string }).code !== "P2002") throw error;
      if (await db().user.findUnique({ where: { email }, select: { id: true } })) throw emailTaken();
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * The user an OAuth provider vouches for (by a verified email): the existing account with that email,
 * or a new one with its own organization and the starter designs, as a sign-up would make.
 */
export async function userForVerifiedEmail(input: { email: string; name: string | null }): Promise<{ id: string; sessionVersion: number }> {
  const email = normalizeAccountEmail(input.email);
  const select = { id: true, sessionVersion: true } as const;
  const existing = await db().user.findUnique({ where: { email }, select });
  if (existing) return existing;
  const name = (input.name?.trim() || email.split("@")[0]!).slice(0, 100);
  const organizationName = `${name}'s organization`.slice(0, 100);
  try {
    const created = await createAccount({ name, email, organizationName }, null);
    await addStarterDesigns({ id: created.organizationId, name: organizationName });
    return { id: created.userId, sessionVersion: 0 };
  } catch (error) {
    // Signed in twice at once: the other request created it.
    const again = await db().user.findUnique({ where: { email }, select });
    if (again) return again;
    throw error;
  }
}

/**
 * The user whose email and password these are, or null (in the same time either way). The session
 * version is the one the password was checked under: a session started from it ends if a reset or
 * "sign out everywhere" commits in between.
 */
export async function authenticateUser(
  email: string,
  password: string,
): Promise<{ id: string; name: string; email: string; sessionVersion: number } | null> {
  const user = await db().user.findUnique({ where: { email: normalizeAccountEmail(email) } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  return user && user.passwordHash && ok ? { id: user.id, name: user.name, email: user.email, sessionVersion: user.sessionVersion } : null;
}

/** Whether the user can sign in with a password (OAuth-made accounts have none until a reset sets one). */
export async function userHasPassword(userId: string): Promise<boolean> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  return Boolean(user?.passwordHash);
}

/** The user's membership, or null when the user or the membership is gone. */
export async function findMember(userId: string): Promise<Member | null> {
  const membership = await db().membership.findFirst({
    where: { userId },
    orderBy: { createdAt: "asc" },
    include: {
      user: { select: { id: true, name: true, email: true } },
      organization: { select: { id: true, slug: true, name: true, plan: true, monthlyIssueQuota: true } },
    },
  });
  return membership ? { user: membership.user, role: membership.role, organization: membership.organization } : null;
}
