// next-auth for the dashboard: email and password (the Credentials provider, so sessions are signed
// JWTs in an HTTP-only cookie, Secure whenever PUBLIC_URL is https). The session names the user only;
// the organization is looked up per request (findMember), so access ends with the membership.
import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { authenticateUser, userForVerifiedEmail } from "../accounts/service";
import { clientConnection } from "../api/client-connection";
import { TokenBucketLimiter } from "../core/rate-limit";
import { appSecret } from "../app-secret";
import { config } from "../config";
import { log } from "../log";

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

// Sign-in attempts: per client address (10 at once, then one every 6 s) and per email (5 at once,
// then one every 12 s), so neither guessing many passwords for one account nor spraying many accounts
// from one place gets far.
const holder = globalThis as unknown as { __cisSignInLimits?: { byAddress: TokenBucketLimiter; byEmail: TokenBucketLimiter } };
function signInLimits() {
  holder.__cisSignInLimits ??= { byAddress: new TokenBucketLimiter(1 / 6, 10), byEmail: new TokenBucketLimiter(1 / 12, 5) };
  return holder.__cisSignInLimits;
}

export const TOO_MANY_ATTEMPTS = "TooManyAttempts";

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
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
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
          const headers = new Headers();
          for (const [name, value] of Object.entries(request?.headers ?? {})) if (typeof value === "string") headers.set(name, value);
          const address = clientConnection(headers, config().trustProxy).address ?? "unknown";
          const limits = signInLimits();
          if (!limits.byAddress.take(`a:${address}`).allowed || !limits.byEmail.take(`e:${email}`).allowed) {
            log.warn("sign_in_rate_limited", { address });
            throw new Error(TOO_MANY_ATTEMPTS);
          }
          const user = await authenticateUser(email, password);
          return user ? { id: user.id, name: user.name, email: user.email } : null;
        },
      }),
    ],
    callbacks: {
      // OAuth: only a provider-verified email signs in, to the account with that email (made on first use).
      async signIn({ account, profile, user }) {
        if (!account || account.type !== "oauth") return true;
        return oauthVerifiedEmail(account.provider, profile, user?.email) !== null;
      },
      async jwt({ token, user, account, profile }) {
        if (account?.type === "oauth") {
          const email = oauthVerifiedEmail(account.provider, profile, user?.email);
          if (!email) throw new Error("OAuthEmailNotVerified");
          token.sub = (await userForVerifiedEmail({ email, name: user?.name ?? null })).id;
        } else if (user) {
          token.sub = user.id;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: token.sub };
      },
    },
    logger: {
      error: (code) => log.error("auth_error", { code }),
      warn: (code) => log.warn("auth_warning", { code }),
      debug: () => undefined,
    },
  };
}
