// Dashboard sign-in without a browser: next-auth's credentials callback, as the sign-in form posts it.
// The proxy's X-Forwarded-For names the client's address (test servers trust it).

export type SignInOutcome = {
  /** The error the answer redirects with ("" for none: signed in). */
  error: string;
  /** The cookies to send as that session (next-auth's CSRF and session cookies), as a Cookie header. */
  cookie: string;
};

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!);

export async function signInWithPassword(baseURL: string, email: string, password: string, address: string): Promise<SignInOutcome> {
  const headers = { "X-Forwarded-For": address };
  const csrf = await fetch(`${baseURL}/api/auth/csrf`, { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = cookiesOf(csrf);
  const answer = await fetch(`${baseURL}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, Cookie: csrfCookies.join("; "), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseURL}/dashboard` }).toString(),
  });
  const location = answer.headers.get("location") ?? ((await answer.json().catch(() => ({}))) as { url?: string }).url ?? "";
  return { error: new URL(location, baseURL).searchParams.get("error") ?? "", cookie: [...csrfCookies, ...cookiesOf(answer)].join("; ") };
}

/** One password sign-in from `address`; returns the error the answer redirects with ("" for none). */
export async function signInError(baseURL: string, email: string, password: string, address: string): Promise<string> {
  return (await signInWithPassword(baseURL, email, password, address)).error;
}
