// Clients that misbehave at the app server's edge (server.ts), and must neither change anything nor
// make the logs report a server error: a server action posted from another site, and requests whose
// headers or body never arrive in full.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { expectStatus } from "../support/api-helpers";
import { RawConnection, type RawResponse } from "../support/raw-http";
import { ROOT } from "../support/servers";
import { signInError, signInWithPassword } from "../support/sign-in";
import { draftCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";

type LogLine = Record<string, unknown> & { level: string; event: string };

const parsedLines = (text: string): LogLine[] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

/** The log lines of one request id, once at least `atLeast` are there (the log is written through a pipe). */
async function linesOf(read: () => string, requestId: string, atLeast = 1): Promise<LogLine[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = parsedLines(read()).filter((l) => l.requestId === requestId);
    if (lines.length >= atLeast || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function requestHead(method: string, target: string, headers: Record<string, string>): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
}

// ---- server actions from another site -----------------------------------------------------------------

/** The sign-up form's server action, by the id the build gave it. */
function signUpActionId(): string {
  const manifest = path.join(ROOT, ".next/server/server-reference-manifest.json");
  expect(existsSync(manifest), manifest).toBe(true);
  const actions = (JSON.parse(readFileSync(manifest, "utf8")) as { node: Record<string, unknown> }).node;
  const id = Object.entries(actions).find(([, entry]) => JSON.stringify(entry).includes('"signUpAction"'))?.[0];
  expect(id, "the signUpAction in the server reference manifest").toBeTruthy();
  return id!;
}

/**
 * The (previousState, formData) arguments as React sends a server action's: the form's fields under the
 * reference's prefix first, then the root ("0"), which the server resolves as soon as it arrives.
 */
function signUpArguments(account: { email: string; password: string }): FormData {
  const form = new FormData();
  form.append("_1_name", "Eve Example");
  form.append("_1_email", account.email);
  form.append("_1_password", account.password);
  form.append("_1_organizationName", `Org ${account.email.slice(0, 8)}`);
  form.append("0", '[null,"$K1"]');
  return form;
}

test.describe("a server action posted from another site", () => {
  test("Origin http://evil.example or null → 403 and one warning line; the action does not run; with a session too", async ({
    server,
    client,
  }) => {
    const actionId = signUpActionId();
    const address = uniqueAddress();
    const visitor = await client({ version: null, https: false, headers: { "X-Forwarded-For": address } });
    const account = { email: `eve.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`, password: "correct horse battery" };
    const log = () => readFileSync(server.logFile, "utf8");

    for (const origin of ["http://evil.example", "null", "http://127.0.0.1:1"]) {
      const requestId = `cross-origin-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const res = await visitor.post("/signup", {
        headers: { "Next-Action": actionId, Origin: origin, "X-Request-Id": requestId },
        multipart: signUpArguments(account),
      });
      expect(res.status(), origin).toBe(403);
      expect(res.headers()["x-request-id"]).toBe(requestId);
      const lines = await linesOf(log, requestId);
      expect(lines, origin).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: "warn", event: "server_action_cross_origin", status: 403, origin });
      expect(JSON.stringify(lines[0])).not.toContain("    at ");
    }
    // Nothing ran: there is no such account.
    expect(await signInError(server.baseURL, account.email, account.password, uniqueAddress())).toBe("CredentialsSignin");

    // The same request from the site itself runs (so the refusals above were about the origin only).
    const same = await visitor.post("/signup", {
      headers: { "Next-Action": actionId, Origin: `http://127.0.0.1:${server.port}` },
      multipart: signUpArguments(account),
    });
    expect(same.status(), await same.text()).toBeLessThan(400);
    const session = await signInWithPassword(server.baseURL, account.email, account.password, uniqueAddress());
    expect(session.error).toBe("");

    // Signed in, a page elsewhere makes the browser post an action with the session's cookies.
    const requestId = `cross-origin-session-${Date.now()}`;
    const res = await visitor.post("/dashboard/settings", {
      headers: { "Next-Action": actionId, Origin: "http://evil.example", Cookie: session.cookie, "X-Request-Id": requestId },
      multipart: signUpArguments({ email: `x${account.email}`, password: account.password }),
    });
    expect(res.status()).toBe(403);
    expect(await linesOf(log, requestId)).toEqual([expect.objectContaining({ level: "warn", event: "server_action_cross_origin" })]);
    expect(await signInError(server.baseURL, `x${account.email}`, account.password, uniqueAddress())).toBe("CredentialsSignin");
  });
});

// ---- server action arguments nested too deeply -------------------------------------------------------

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Error-level lines a deep argument used to cause: Next's stack overflow, an action failing on it, or this request's. */
const faultLines = (lines: LogLine[], requestId: string) =>
  lines.filter(
    (l) =>
      l.level === "error" &&
      (l.requestId === requestId || /RangeError|call stack|dashboard_action_failed/.test(JSON.stringify(l)) || l.event === "console"),
  );

test.describe("server action arguments nested too deeply", () => {
  test("a text body or a form field nested deeper than 100 levels → 400 in the envelope, one warning, nothing runs or fails; over 6 MiB → 413", async ({
    server,
    client,
  }) => {
    const actionId = signUpActionId();
    const visitor = await client({ version: null, https: false, headers: { "X-Forwarded-For": uniqueAddress() } });
    const log = () => readFileSync(server.logFile, "utf8");
    const account = { email: `deep.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`, password: "correct horse battery" };
    const deepForm = signUpArguments(account);
    deepForm.set("0", `[null,"$K1",${nested(1000)}]`);
    const bodies: [string, { data: string } | { multipart: FormData }][] = [
      ["text, 300 000 levels", { data: `[${nested(300_000)}]` }],
      ["text, 1000 levels", { data: `[null,${nested(1000)}]` }],
      ["multipart field, 1000 levels", { multipart: deepForm }],
    ];
    for (const [name, body] of bodies) {
      const requestId = `deep-action-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const before = log().length;
      const res = await visitor.post("/signup", {
        headers: {
          "Next-Action": actionId,
          "X-Request-Id": requestId,
          ...("data" in body ? { "Content-Type": "text/plain;charset=UTF-8" } : {}),
        },
        ...body,
      });
      expect(res.status(), name).toBe(400);
      const envelope = (await res.json()) as { error: { code: string; message: string } };
      expect(envelope.error.code, name).toBe("validation_error");
      expect(envelope.error.message, name).toContain("100 levels");
      const lines = await linesOf(log, requestId);
      expect(lines, name).toEqual([expect.objectContaining({ level: "warn", event: "server_action_too_deep", status: 400 })]);
      // Give a late error line time to appear before declaring there is none.
      await new Promise((r) => setTimeout(r, 300));
      expect(faultLines(parsedLines(log().slice(before)), requestId), name).toEqual([]);
    }
    // Over Next's own action body limit (6 MiB): refused before anything is decoded.
    const requestId = `large-action-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const large = await visitor.post("/signup", {
      headers: { "Next-Action": actionId, "X-Request-Id": requestId, "Content-Type": "text/plain;charset=UTF-8" },
      data: `["${"x".repeat(6 * 1024 * 1024)}"]`,
    });
    expect(large.status()).toBe(413);
    expect(((await large.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect(await linesOf(log, requestId)).toEqual([
      expect.objectContaining({ level: "warn", event: "server_action_too_large", status: 413 }),
    ]);

    // Nothing ran: there is no such account.
    expect(await signInError(server.baseURL, account.email, account.password, uniqueAddress())).toBe("CredentialsSignin");

    // The same form, nested as a browser nests it, runs: the server hands Next the very bytes it checked.
    const same = await visitor.post("/signup", { headers: { "Next-Action": actionId }, multipart: signUpArguments(account) });
    expect(same.status(), await same.text()).toBeLessThan(400);
    expect((await signInWithPassword(server.baseURL, account.email, account.password, uniqueAddress())).error).toBe("");
  });

  test("an argument of the wrong type (a list where the form's data belongs) → the form's error state, a warning, no error line", async ({
    server,
    client,
  }) => {
    const actionId = signUpActionId();
    const visitor = await client({ version: null, https: false, headers: { "X-Forwarded-For": uniqueAddress() } });
    const log = () => readFileSync(server.logFile, "utf8");
    const before = log().length;
    const requestId = `wrong-type-action-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await visitor.post("/signup", {
      headers: { "Next-Action": actionId, "X-Request-Id": requestId, "Content-Type": "text/plain;charset=UTF-8" },
      data: `[null,${nested(50)}]`,
    });
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain("could not be read");
    const deadline = Date.now() + 5_000;
    while (!log().slice(before).includes("dashboard_action_arguments_refused") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const lines = parsedLines(log().slice(before));
    expect(lines.filter((l) => l.event === "dashboard_action_arguments_refused")).toEqual([expect.objectContaining({ level: "warn" })]);
    expect(faultLines(lines, requestId)).toEqual([]);
  });
});

// ---- requests that never arrive -----------------------------------------------------------------------

test.describe("a request that does not arrive within the client timeout (2 s here)", () => {
  test("a body that never comes, headers a byte at a time, an action's body: dropped promptly, logged as the client's timeout, nothing written", async ({
    startServer,
    api,
    org,
  }) => {
    const server = await startServer({ CLIENT_TIMEOUT_SECONDS: "2", LOG_LEVEL: "info" });
    const credential = await draftCredential(api, (await walletGroup(api)).id, { name: "Ada Lovelace" });
    const before = await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200);
    const headers = {
      "Service-Version": SERVICE_VERSION,
      "X-Forwarded-Proto": "https",
      Authorization: `Bearer ${org.token}`,
      "Content-Type": "application/json",
    };

    // PATCH declaring 4 bytes of body, then silence.
    const requestId = `slow-body-${Date.now()}`;
    const patch = await RawConnection.open(server.baseURL);
    const started = Date.now();
    try {
      patch.write(
        requestHead("PATCH", `/v1/credentials/${credential.id}`, { ...headers, "Content-Length": "4", "X-Request-Id": requestId }),
      );
      const answer = await patch.readResponse(15_000);
      if (answer !== "closed") {
        expect(answer.status).toBe(408);
        expect(JSON.parse(answer.body.toString("utf8")).error.code).toBe("request_timeout");
      }
      expect(await patch.closesWithin(5_000)).toBe(true);
    } finally {
      patch.close();
    }
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1_500);
    expect(waited).toBeLessThan(10_000);
    const lines = await linesOf(server.output, requestId, 2);
    expect(lines.find((l) => l.event === "client_timeout")).toMatchObject({
      level: "warn",
      waitingFor: "body",
      seconds: 2,
      method: "PATCH",
    });
    for (const line of lines) {
      expect(line.level, JSON.stringify(line)).not.toBe("error");
      expect(line.status, JSON.stringify(line)).not.toBe(500);
    }
    expect(await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200)).toEqual(before);

    // Slowloris: a header line every 300 ms, never the blank line that ends them.
    const drip = await RawConnection.open(server.baseURL);
    try {
      drip.write(`GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      const dripStarted = Date.now();
      while (!drip.closed && Date.now() - dripStarted < 15_000) {
        drip.write(`X-Drip-${Date.now()}: 1\r\n`);
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(drip.closed).toBe(true);
      expect(Date.now() - dripStarted).toBeLessThan(10_000);
    } finally {
      drip.close();
    }
    await expect
      .poll(() =>
        parsedLines(server.output()).some((l) => l.event === "client_timeout" && l.waitingFor === "headers" && l.level === "warn"),
      )
      .toBe(true);

    // A server action whose body never comes (Next reads it itself, and reports the reset it gets).
    const action = await RawConnection.open(server.baseURL);
    try {
      action.write(
        requestHead("POST", "/signup", {
          "Next-Action": signUpActionId(),
          "Content-Type": "text/plain;charset=UTF-8",
          "Content-Length": "10",
          "X-Request-Id": `${requestId}-action`,
        }),
      );
      expect(await action.closesWithin(10_000)).toBe(true);
    } finally {
      action.close();
    }
    const actionLines = await linesOf(server.output, `${requestId}-action`);
    expect(actionLines[0]).toMatchObject({ level: "warn", event: "client_timeout", waitingFor: "body", path: "/signup" });
    await expect
      .poll(() =>
        parsedLines(server.output()).some((l) => l.event === "request_abandoned" && l.errorCode === "ECONNRESET" && l.level === "info"),
      )
      .toBe(true);

    // A body that arrives slowly but in time is served, and the server still answers.
    const slowButInTime = await RawConnection.open(server.baseURL);
    try {
      const body = JSON.stringify({ expiryDate: null });
      slowButInTime.write(
        requestHead("PATCH", `/v1/credentials/${credential.id}`, { ...headers, "Content-Length": String(Buffer.byteLength(body)) }),
      );
      slowButInTime.write(body.slice(0, 5));
      await new Promise((r) => setTimeout(r, 700));
      slowButInTime.write(body.slice(5));
      const answer = await slowButInTime.readResponse(10_000);
      expect(answer).not.toBe("closed");
      expect((answer as RawResponse).status).toBe(200);
    } finally {
      slowButInTime.close();
    }
    await server.stop();

    const all = parsedLines(server.output());
    expect(
      all.filter((l) => l.level === "error"),
      "error-level lines",
    ).toEqual([]);
    expect(
      all.filter((l) => l.status === 500),
      "500s",
    ).toEqual([]);
  });
});
