// next-auth for the dashboard: email and password (the Credentials provider, so sessions are signed
// JWTs in an HTTP-only cookie, Secure whenever PUBLIC_URL is https), GitHub and Google. The JWT names
// the user and a DashboardSession row (lib/accounts/sessions.ts), which the jwt callback checks on
// every read, so a session ends at sign-out, "sign out everywhere", a password change or reset, and
// 7 days after sign-in. The organization is looked up per request (findMember), so access also ends
// with the membership.
import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { authenticateUser, userForVerifiedEmail } from "../accounts/service";
import { currentSessionVersion, endSession, isSessionActive, SESSION_LIFETIME_SECONDS, startDashboardSession } from "../accounts/sessions";
import { appSecret } from "../app-secret";
import { config } from "../config";
import { log } from "../log";
import { clientAddressOfRecord } from "./client-address";
import { signInThrottle } from "./sign-in-throttle";

export const TOO_MANY_ATTEMPTS = "TooManyAttempts";

/** Thrown by the jwt callback for a cookie whose session has ended: next-auth then answers "no session". */
class SessionEnded extends Error {
  constructor() {
    super("SessionEnded");
    this.name = "SessionEnded";
  }
}

/** GitHub and Google sign-in, each when its client id and secret are configured. */
function oauthProviders() {
  const { github, google } = config().oauth;
  return [
    ...(github ? [GitHubProvider({ clientId: github.clientId, clientSecret: github.clientSecret })] : []),
    ...(google ? [GoogleProvider({ clientId: google.clientId, clientSecret: google.clientSecret })] : []),
  ];
}

/**
 * The email a provider vouches for, or null. Google states it in the profile (`email_verified`).
 * For GitHub, next-auth's provider fills `user.email` with the account's primary address (fetched
 * from /user/emails when the public profile hides it); GitHub requires that address to be verified.
 */
export function oauthVerifiedEmail(provider: string, profile: unknown, userEmail: string | null | undefined): string | null {
  const p = (profile ?? {}) as { email?: unknown; email_verified?: unknown };
  const email = provider === "google" ? (p.email_verified === true ? p.email : null) : provider === "github" ? userEmail : null;
  if (typeof email !== "string" || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) return null;
  return email.trim().toLowerCase();
}

/** Which OAuth providers the sign-in page offers. */
export function enabledOAuthProviders(): { id: "github" | "google"; name: string }[] {
  const { github, google } = config().oauth;
  return [...(github ? [{ id: "github" as const, name: "GitHub" }] : []), ...(google ? [{ id: "google" as const, name: "Google" }] : [])];
}

export function dashboardAuthOptions(): NextAuthOptions {
  // next-auth reads its own base URL from the environment; ours is PUBLIC_URL.
  process.env.NEXTAUTH_URL ??= config().publicUrl;
  return {
    // A key of its own, derived from the app secret, so session tokens and cursors never share a key.
    secret: createHmac("sha256", appSecret()).update("next-auth session").digest("base64url"),
    session: { strategy: "jwt", maxAge: SESSION_LIFETIME_SECONDS },
    useSecureCookies: config().publicUrl.startsWith("https://"),
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      ...oauthProviders(),
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const email = String(credentials?.email ?? "").trim().toLowerCase();
          const password = String(credentials?.password ?? "");
          if (!email || !password) return null;
          const address = clientAddressOfRecord(request?.headers);
          const verdict = await signInThrottle().admit(address, email);
          if (!verdict.allowed) {
            log.warn("sign_in_rate_limited", { address, limitedBy: verdict.limitedBy });
            throw new Error(TOO_MANY_ATTEMPTS);
          }
          const user = await authenticateUser(email, password);
          if (!user) {
            await signInThrottle().recordFailure(email);
            return null;
          }
          return { id: user.id, name: user.name, email: user.email, sessionVersion: user.sessionVersion };
        },
      }),
    ],
    callbacks: {
      // OAuth: only a provider-verified email signs in, to the account with that email (made on first use).
      async signIn({ account, profile, user }) {
        if (!account || account.type !== "oauth") return true;
        return oauthVerifiedEmail(account.provider, profile, user?.email) !== null;
      },
      // `user` is there only at sign-in: that starts a session row. Every later read of the cookie
      // (each dashboard page, server action and /api/auth/session) checks the row.
      async jwt({ token, user, account, profile }) {
        if (user) {
          let userId: string;
          let version: number;
          if (account?.type === "oauth") {
            const email = oauthVerifiedEmail(account.provider, profile, user.email);
            if (!email) throw new Error("OAuthEmailNotVerified");
            ({ id: userId, sessionVersion: version } = await userForVerifiedEmail({ email, name: user.name ?? null }));
          } else {
            userId = user.id;
            version = (user as { sessionVersion?: number }).sessionVersion ?? (await currentSessionVersion(userId));
          }
          return { ...token, sub: userId, sid: await startDashboardSession(userId, version) };
        }
        // A cookie from before sessions had rows names none: it has ended too.
        if (typeof token.sid !== "string" || typeof token.sub !== "string" || !(await isSessionActive(token.sid, token.sub))) throw new SessionEnded();
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: token.sub, sessionId: token.sid };
      },
    },
    events: {
      // Sign-out ends this session for good, so a copy of the cookie stops working too.
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endSession(token.sid);
      },
    },
    logger: {
      error: (code, metadata) => {
        if ((metadata as Error | undefined)?.name === "SessionEnded") log.info("dashboard_session_ended");
        else log.error("auth_error", { code });
      },
      warn: (code) => log.warn("auth_warning", { code }),
      debug: () => undefined,
    },
  };
}
