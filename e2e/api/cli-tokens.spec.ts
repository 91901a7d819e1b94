// The operator CLI (docs/operating.md, Command line) and token revocation as the API sees it (a 401).
import { randomBytes } from "node:crypto";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";

const TOKEN = /^cis_[0-9A-Za-z]{40}$/;

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)!.trim();
}

test("org create, token create (token alone on the last line), token list, token revoke → 401", async ({ cli, client }) => {
  const slug = `cli-${randomBytes(4).toString("hex")}`;
  const org = await cli(["org", "create", slug, "--plan", "premium", "--name", "CLI Test Org"]);
  expect(org.code, org.stderr).toBe(0);

  const [first, second] = await Promise.all([cli(["token", "create", slug, "--name", "first"]), cli(["token", "create", slug])]);
  expect(first.code, first.stderr).toBe(0);
  expect(second.code, second.stderr).toBe(0);
  const token1 = lastLine(first.stdout);
  const token2 = lastLine(second.stdout);
  expect(token1).toMatch(TOKEN);
  expect(token2).toMatch(TOKEN);
  expect(token2).not.toBe(token1);

  const api1 = await client({ token: token1 });
  const api2 = await client({ token: token2 });
  const design = await expectStatus(await api1.post("/v1/designs", { data: { name: "Shared", type: "badge" } }), 201);
  // Both tokens act for the same organization.
  await expectStatus(await api2.get(`/v1/designs/${design.id}`), 200);

  const listed = await cli(["token", "list", slug]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(token1.slice(0, 12));
  expect(listed.stdout).toContain(token2.slice(0, 12));
  expect(listed.stdout).not.toContain(token1); // never the whole token

  const revoked = await cli(["token", "revoke", token1.slice(0, 12)]);
  expect(revoked.code, revoked.stderr).toBe(0);
  await expectError(await api1.get("/v1/groups"), 401, "unauthorized");
  await expectError(await api1.get(`/v1/designs/${design.id}`), 401, "unauthorized");
  // The other token is unaffected.
  await expectStatus(await api2.get(`/v1/designs/${design.id}`), 200);

  const after = await cli(["token", "list", slug]);
  const line = after.stdout.split("\n").find((l) => l.startsWith(token1.slice(0, 12)));
  expect(line).toMatch(/revoked/);

  // Revoking by the whole token works too.
  const byToken = await cli(["token", "revoke", token2]);
  expect(byToken.code, byToken.stderr).toBe(0);
  await expectError(await api2.get("/v1/groups"), 401, "unauthorized");
});

test("a revoked pool token is refused on the very next request", async ({ cli, api, org }) => {
  await expectStatus(await api.get("/v1/groups"), 200);
  const res = await cli(["token", "revoke", org.token.slice(0, 12)]);
  expect(res.code, res.stderr).toBe(0);
  await expectError(await api.get("/v1/groups"), 401, "unauthorized");
  await expectError(await api.post("/v1/designs", { data: { name: "x", type: "badge" } }), 401, "unauthorized");
});

test("token create for an unknown organization fails without printing a token", async ({ cli }) => {
  const res = await cli(["token", "create", `missing-${randomBytes(3).toString("hex")}`]);
  expect(res.code).not.toBe(0);
  expect(res.stdout).not.toMatch(/cis_[0-9A-Za-z]{40}/);
});

test("org create gives the new organization the starter designs a sign-up gets", async ({ cli, client }) => {
  const slug = `cli-starter-${randomBytes(4).toString("hex")}`;
  const org = await cli(["org", "create", slug]);
  expect(org.code, org.stderr).toBe(0);
  const token = await cli(["token", "create", slug]);
  expect(token.code, token.stderr).toBe(0);
  const api = await client({ token: lastLine(token.stdout) });
  const designs = await expectStatus(await api.get("/v1/designs?limit=100"), 200);
  // Every starter design (lib/designs/seed-documents.ts): eight certificates and badges besides the first three.
  expect(designs.data).toHaveLength(11);
  expect(new Set(designs.data.map((d: { type: string }) => d.type))).toEqual(new Set(["certificate", "badge"]));
});
