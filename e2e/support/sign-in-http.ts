// Dashboard sign-in over HTTP, as a browser posts it to next-auth: a client with its own cookie jar
// (CSRF cookie, session and device cookies), accounts made with the sign-up service call, many wrong
// passwords from many addresses, and the sign-in link read back from the emails the servers write.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { expect } from "../fixtures";
import { emlFilesContaining, waitFor } from "./mail";
import { runTsx, type ServerInfo } from "./state";
import { uniqueAddress } from "./wallet-helpers";

export const SIGN_IN_PASSWORD = "correct horse battery";
export const DEVICE_COOKIE = "cis.sign-in-device";

/** A dashboard account with the password SIGN_IN_PASSWORD; returns its user id. */
export async function createAccount(server: ServerInfo, email: string): Promise<string> {
  const result = await runTsx(
    "e2e/support/create-account.ts",
    [email, SIGN_IN_PASSWORD],
    { DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir },
    120_000,
  );
  if (result.code !== 0) throw new Error(`create-account failed (${result.code}):\n${result.stderr}`);
  return (JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { userId: string }).userId;
}

/** A browser's cookie jar as next-auth sees it: the CSRF cookie, then whatever sign-ins set. */
export class SignInClient {
  readonly cookies = new Map<string, string>();
  readonly setCookieHeaders: string[] = [];
  #csrfToken = "";
  constructor(readonly baseURL: string) {}

  cookieHeader = () => [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");

  #keep(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      this.setCookieHeaders.push(header);
      const [pair] = header.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }

  /** One POST to next-auth's callback of `provider` from `address`; the error it redirects with ("" for none). */
  async signIn(provider: "credentials" | "sign-in-link", fields: Record<string, string>, address = uniqueAddress()): Promise<string> {
    const headers = { "X-Forwarded-For": address };
    if (!this.#csrfToken) {
      const csrf = await fetch(`${this.baseURL}/api/auth/csrf`, { headers });
      this.#keep(csrf);
      this.#csrfToken = ((await csrf.json()) as { csrfToken: string }).csrfToken;
    }
    const answer = await fetch(`${this.baseURL}/api/auth/callback/${provider}`, {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, Cookie: this.cookieHeader(), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, csrfToken: this.#csrfToken, callbackUrl: `${this.baseURL}/dashboard` }).toString(),
    });
    this.#keep(answer);
    expect([200, 302]).toContain(answer.status);
    const location = answer.headers.get("location") ?? "";
    return new URL(location, this.baseURL).searchParams.get("error") ?? "";
  }

  password = (email: string, password: string, address?: string) => this.signIn("credentials", { email, password }, address);

  /** The email the session cookie is for, or null. */
  async sessionEmail(): Promise<string | null> {
    const session = (await (await fetch(`${this.baseURL}/api/auth/session`, { headers: { Cookie: this.cookieHeader() } })).json()) as {
      user?: { email?: string };
    };
    return session.user?.email ?? null;
  }
}

/**
 * Wrong passwords for `email`, each from an address of its own, 4 at a time, until the account is
 * guarded (the first "UseEmailedLink"): 100, plus what the count refilled (one per 36 s) meanwhile.
 */
export async function spendWrongPasswordCount(baseURL: string, email: string): Promise<void> {
  const started = Date.now();
  let wrong = 0;
  let guarded = false;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      const guesser = new SignInClient(baseURL);
      while (!guarded && wrong < 200) {
        const outcome = await guesser.password(email, `guess ${randomUUID()}`);
        if (outcome === "CredentialsSignin") wrong++;
        else if (outcome === "UseEmailedLink") guarded = true;
        else throw new Error(`unexpected sign-in outcome ${JSON.stringify(outcome)}`);
      }
    }),
  );
  expect(guarded, `guarded after ${wrong} wrong passwords`).toBe(true);
  // Every attempt counts against the account's 100 once admitted, the owner's own sign-ins too (a
  // sign-up or a sign-in before this): so at least 100 less those few.
  expect(wrong).toBeGreaterThanOrEqual(95);
  expect(wrong).toBeLessThanOrEqual(100 + Math.ceil((Date.now() - started) / 36_000) + 4);
}

/** The token of the newest sign-in link emailed to `email` (the servers write mail as .eml files). */
export async function emailedLinkToken(server: ServerInfo, email: string): Promise<string> {
  const mail = await waitFor(
    `a sign-in link to ${email}`,
    () =>
      emlFilesContaining(path.join(server.dataDir, "mail"), email).find(
        (m) => m.mail.to.includes(email) && m.mail.subject === "Your sign-in link",
      ),
    45_000,
  );
  const link = /https?:\/\/\S+\/signin\/link\?token=([A-Za-z0-9_%-]+)/.exec(mail.mail.text);
  expect(link, mail.mail.text).toBeTruthy();
  return decodeURIComponent(link![1]!);
}
