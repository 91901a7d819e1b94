// A recipient's wallet session over HTTP, as a person gets one: ask for a sign-in link, read the email
// the server wrote (the test servers have no SMTP_URL: mail is written to DATA_DIR/mail/*.eml), open the
// link's page and press its "Sign in" button (a form post). For the wallet specs, and for the branches
// that build on the wallet (profiles, corrections, wallet-app offers).
//
//   const cookie = await signInToWallet(server.baseURL, "ada@example.com");
//   const list = await fetch(`${server.baseURL}/api/wallet/me/credentials`, { headers: { Cookie: cookie } });
import path from "node:path";
import { expect } from "@playwright/test";
import { emlFilesContaining, waitFor, type ParsedMail } from "./mail";
import { readState, type ServerInfo } from "./state";
import { uniqueAddress } from "./wallet-helpers";

/** The test server behind `baseURL` (for its mail folder). */
function serverOf(baseURL: string): ServerInfo {
  const server = Object.values(readState().servers).find((s) => s && new URL(s.baseURL).origin === new URL(baseURL).origin);
  if (!server) throw new Error(`no test server at ${baseURL}`);
  return server;
}

/** The wallet sign-in emails sent to `email` so far (with their files' paths). */
export function walletSignInEmails(
  baseURL: string,
  email: string,
  dataDir = serverOf(baseURL).dataDir,
): { file: string; mail: ParsedMail }[] {
  return emlFilesContaining(path.join(dataDir, "mail"), email.toLowerCase()).filter(
    (m) => m.mail.to.toLowerCase().includes(email.toLowerCase()) && /\/wallet\/sign-in\?token=/.test(m.mail.text),
  );
}

/** The files of the wallet sign-in emails to `email` so far: what `nextWalletLinkToken` waits past. */
export function seenWalletEmails(baseURL: string, email: string): Set<string> {
  return new Set(walletSignInEmails(baseURL, email).map((m) => m.file));
}

/** The token in a wallet sign-in email. */
export function walletLinkToken(mail: ParsedMail): string {
  const link = /https?:\/\/\S+\/wallet\/sign-in\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  expect(link, mail.text).toBeTruthy();
  return decodeURIComponent(link![1]!);
}

/** Asks for a sign-in link for `email` (from a client address of its own) and returns the answer. */
export async function askForWalletLink(baseURL: string, email: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseURL}/api/wallet/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": uniqueAddress(), ...headers },
    body: JSON.stringify({ email }),
  });
}

/** Waits for a wallet sign-in email to `email` that is not one of `seen`, and returns its token. */
export async function nextWalletLinkToken(baseURL: string, email: string, seen: Set<string>, timeout = 45_000): Promise<string> {
  const found = await waitFor(
    `a new wallet sign-in email to ${email}`,
    () => walletSignInEmails(baseURL, email).find((m) => !seen.has(m.file)),
    timeout,
  );
  return walletLinkToken(found.mail);
}

/** Presses the link page's "Sign in" button: the form post, answered 303 (to /wallet with a cookie, or back to the link page). */
export async function useWalletLink(baseURL: string, token: string): Promise<Response> {
  return fetch(`${baseURL}/api/wallet/sign-in/link`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(baseURL).origin, "X-Forwarded-For": uniqueAddress() },
    body: new URLSearchParams({ token }).toString(),
  });
}

/** The `name=value` of the wallet session cookie a response sets, or null. */
export function walletCookieOf(response: Response): string | null {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0]!;
    if (/^(__Host-)?cis\.wallet-session=./.test(pair)) return pair;
  }
  return null;
}

/**
 * Signs in to the wallet as `email` (at least one issued credential must be addressed to it, or no
 * email comes) and returns the session cookie as a Cookie header value (`name=value`).
 */
export async function signInToWallet(baseURL: string, email: string): Promise<string> {
  const seen = seenWalletEmails(baseURL, email);
  const asked = await askForWalletLink(baseURL, email);
  expect(asked.status, await asked.clone().text()).toBe(202);
  const token = await nextWalletLinkToken(baseURL, email, seen);
  const page = await fetch(`${baseURL}/wallet/sign-in?token=${encodeURIComponent(token)}`);
  expect(page.status).toBe(200);
  const used = await useWalletLink(baseURL, token);
  expect(used.status).toBe(303);
  expect(used.headers.get("location")).toBe("/wallet");
  const cookie = walletCookieOf(used);
  expect(cookie, "the wallet session cookie").toBeTruthy();
  return cookie!;
}
