// next-auth for the dashboard: email and password (the Credentials provider, so sessions are signed
// JWTs in an HTTP-only cookie, Secure whenever PUBLIC_URL is https), GitHub and Google. The JWT names
// the user and a DashboardSession row (lib/accounts/sessions.ts), which the jwt callback checks on
// every read, so a session ends at sign-out, "sign out everywhere", a password change or reset, and
// 7 days after sign-in. The organization is looked up per request (findMember), so access also ends
// with the membership.
import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import { cookies } from "next/headers";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { userForVerifiedEmail } from "../accounts/service";
import { redeemSignInLink } from "../accounts/sign-in-link";
import { currentSessionVersion, endSession, isSessionActive, SESSION_LIFETIME_SECONDS, startDashboardSession } from "../accounts/sessions";
import { appSecret } from "../app-secret";
import { config } from "../config";
import { log } from "../log";
import { clientAddressOfRecord } from "./client-address";
import { signInWithPassword } from "./password-sign-in";
import { cookieFromHeader, DEVICE_COOKIE_LIFETIME_SECONDS, deviceCookieName, deviceCookieValue } from "./sign-in-device";
import { signInThrottle } from "./sign-in-throttle";

// The error codes a refused sign-in redirects with (the sign-in pages word them).
export const TOO_MANY_ATTEMPTS = "TooManyAttempts";
export const USE_EMAILED_LINK = "UseEmailedLink";
export const INVALID_SIGN_IN_LINK = "SignInLinkInvalid";

const secureCookies = () => config().publicUrl.startsWith("https://");

/**
 * Marks this browser as one that signed in to `userId`, whose session version is `sessionVersion` (the
 * route handler adds the cookie to its answer).
 */
async function rememberDevice(userId: string, sessionVersion: number): Promise<void> {
  (await cookies()).set(deviceCookieName(secureCookies()), deviceCookieValue(userId, sessionVersion), {
    httpOnly: true,
    secure: secureCookies(),
    sameSite: "lax",
    path: "/",
    maxAge: DEVICE_COOKIE_LIFETIME_SECONDS,
  });
}

/** Thrown by the jwt callback for a cookie whose session has ended: next-auth then answers "no session". */
class SessionEnded extends Error {
  constructor() {
    super("SessionEnded");
    this.name = "SessionEnded";
  }
}

/** GitHub and Google sign-in, each when its client id and secret are configured. */
/** next-auth types a request's headers loosely: a header is text only when it is a string. */
function headerText(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

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
    useSecureCookies: secureCookies(),
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      ...oauthProviders(),
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const email = String(credentials?.email ?? "")
            .trim()
            .toLowerCase();
          const password = String(credentials?.password ?? "");
          if (!email || !password) return null;
          const result = await signInWithPassword({
            email,
            password,
            clientAddress: clientAddressOfRecord(request?.headers),
            deviceCookie: cookieFromHeader(headerText(request?.headers?.cookie), deviceCookieName(secureCookies())),
          });
          switch (result.outcome) {
            case "signed-in":
              return { id: result.user.id, name: result.user.name, email: result.user.email, sessionVersion: result.user.sessionVersion };
            case "wrong-password":
              return null;
            case "too-many-attempts":
              throw new Error(TOO_MANY_ATTEMPTS);
            case "use-emailed-link":
              throw new Error(USE_EMAILED_LINK);
          }
        },
      }),
      // The emailed one-time link (lib/accounts/sign-in-link.ts): its page posts the token here.
      CredentialsProvider({
        id: "sign-in-link",
        name: "Emailed sign-in link",
        credentials: { token: { label: "Token", type: "text" } },
        async authorize(credentials, request) {
          if (!(await signInThrottle().admitLinkUse(clientAddressOfRecord(request?.headers)))) throw new Error(TOO_MANY_ATTEMPTS);
          const user = await redeemSignInLink(String(credentials?.token ?? ""));
          if (!user) throw new Error(INVALID_SIGN_IN_LINK);
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
          const sid = await startDashboardSession(userId, version);
          await rememberDevice(userId, version);
          return { ...token, sub: userId, sid };
        }
        // A cookie from before sessions had rows names none: it has ended too.
        if (typeof token.sid !== "string" || typeof token.sub !== "string" || !(await isSessionActive(token.sid, token.sub)))
          throw new SessionEnded();
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
