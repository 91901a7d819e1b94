// JSON nested too deeply, wherever a client sends JSON: the /v1 wrapper, the public verifier (a body
// object, or a document sent as a string) and the wallet's public endpoints. Each is a 400
// validation_error naming the field, never a 500; nothing is written; the server logs no error.
import { readFileSync } from "node:fs";
import { test, expect } from "../fixtures";
import { expectError, listAll } from "../support/api-helpers";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";

/** Must match MAX_JSON_DEPTH in lib/core/json-text.ts. */
const MAX_DEPTH = 100;

/** `depth` levels of objects, written out by hand: the client's serializer would recurse. */
const nested = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

const TOO_DEEP = new RegExp(`more than ${MAX_DEPTH} levels deep`);

/** The server's log lines for one request id. */
function logLinesOf(logFile: string, requestId: string): Record<string, unknown>[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => line.includes(requestId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test.describe("JSON nested too deeply", () => {
  test("POST /api/verify: a credential object 3,000 and 5,000 levels deep → 400 naming `credential`, no error logged", async ({
    client,
    server,
  }) => {
    const visitor = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
    for (const depth of [MAX_DEPTH, 3_000, 5_000]) {
      const requestId = `json-depth-verify-${depth}-${Date.now()}`;
      const res = await visitor.post("/api/verify", {
        headers: { "Content-Type": "application/json", "X-Request-Id": requestId },
        data: `{"credential":${nested(depth)}}`,
      });
      const body = await expectError(res, 400, "validation_error", { paths: ["credential"], exactPaths: true, message: TOO_DEEP });
      expect(body.error.message).not.toMatch(/RangeError|stack/i);
      expect(logLinesOf(server.logFile, requestId).filter((l) => l.level === "error")).toEqual([]);
    }
    // The same document as a string is refused the same way, naming `json`.
    const res = await visitor.post("/api/verify", { data: { json: nested(5_000) } });
    await expectError(res, 400, "validation_error", { paths: ["json"], exactPaths: true, message: TOO_DEEP });
    // Arrays count like objects, and brackets inside strings do not count at all.
    await expectError(
      await visitor.post("/api/verify", {
        headers: { "Content-Type": "application/json" },
        data: `{"credential":{"a":${"[".repeat(5_000)}${"]".repeat(5_000)}}}`,
      }),
      400,
      "validation_error",
      {
        paths: ["credential"],
      },
    );
    const strings = await visitor.post("/api/verify", { data: { credential: { note: "[{".repeat(10_000) } } });
    expect(strings.status()).toBe(200);
  });

  test("a real credential still verifies (well within the limit)", async ({ api, client }) => {
    const credential = await issueCredential(api, (await walletGroup(api)).id, { name: "Grace Hopper" });
    const document = await (await api.get(`/credentials/${credential.publicId}/credential.json`)).text();
    const visitor = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
    const asObject = await visitor.post("/api/verify", { data: { credential: JSON.parse(document) } });
    expect(asObject.status()).toBe(200);
    expect(((await asObject.json()) as { verdict: string }).verdict).not.toBe("unverifiable");
  });

  test("/v1: a body 5,000 levels deep → 400 naming the field, and nothing is written", async ({ api, server }) => {
    const group = await walletGroup(api);
    const before = await listAll<{ id: string }>(api, "/v1/credentials");
    const requestId = `json-depth-v1-${Date.now()}`;
    const res = await api.post("/v1/credentials", {
      headers: { "Content-Type": "application/json", "X-Request-Id": requestId },
      data: `{"groupId":"${group.id}","recipient":{"name":"Ada"},"customAttributes":${nested(5_000)}}`,
    });
    await expectError(res, 400, "validation_error", { paths: ["customAttributes"], exactPaths: true, message: TOO_DEEP });
    await expectError(
      await api.patch(`/v1/groups/${group.id}`, { headers: { "Content-Type": "application/json" }, data: `[${nested(5_000)}]` }),
      400,
      "validation_error",
      { paths: ["(body)"], exactPaths: true },
    );
    expect(await listAll<{ id: string }>(api, "/v1/credentials")).toEqual(before);
    expect(logLinesOf(server.logFile, requestId).filter((l) => l.level === "error")).toEqual([]);
  });

  test("the wallet's public endpoints: a deep body → 400 naming the field", async ({ client }) => {
    const visitor = await client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
    for (const path of ["/api/wallet/events", "/api/wallet/verify"]) {
      const res = await visitor.post(path, {
        headers: { "Content-Type": "application/json" },
        data: `{"publicId":${"[".repeat(1_000)}${"]".repeat(1_000)}}`,
      });
      await expectError(res, 400, "validation_error", { paths: ["publicId"], exactPaths: true, message: TOO_DEEP });
    }
  });
});
