// The analytics CSV export (/dashboard/analytics/export, docs/dashboard.md, Analytics) over HTTP on each
// engine: a dashboard session is required; a bad custom period is named in the error envelope and
// nothing is exported; the file is CSV named after the organization and the period. The counting rules
// are tested on both engines by lib/interactions/funnel*.test.ts.
import { randomUUID } from "node:crypto";
import { test, expect } from "../fixtures";
import { createAccount, SIGN_IN_PASSWORD, SignInClient } from "../support/sign-in-http";

test.describe.configure({ timeout: 180_000 });

test("the funnel's CSV: a session required, a bad period named, the file named after organization and period", async ({
  server,
  baseURL,
}) => {
  const exportUrl = (query: string) => `${baseURL}/dashboard/analytics/export?${query}`;
  const anonymous = await fetch(exportUrl("period=30d"), { redirect: "manual" });
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toEqual({ error: { code: "unauthorized", message: "Your session has ended; sign in again." } });

  const email = `analytics.${randomUUID()}@example.com`;
  await createAccount(server, email);
  const browser = new SignInClient(baseURL!);
  expect(await browser.password(email, SIGN_IN_PASSWORD)).toBe("");
  const get = (query: string) => fetch(exportUrl(query), { headers: { Cookie: browser.cookieHeader() }, redirect: "manual" });

  const bad = await get("from=2026-02-30&to=2026-01-01");
  expect(bad.status).toBe(400);
  expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await bad.json()) as { error: { code: string; details: { path: string; message: string }[] } };
  expect(body.error.code).toBe("validation_error");
  expect(body.error.details).toEqual([{ path: "from", message: "Enter a start date (YYYY-MM-DD)." }]);

  const custom = await get("from=2026-01-01&to=2026-01-31");
  expect(custom.status).toBe(200);
  expect(custom.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(custom.headers.get("cache-control")).toBe("no-store");
  expect(custom.headers.get("content-disposition")).toMatch(/^attachment; filename="analytics-org-[a-z0-9-]+-2026-01-01_2026-01-31\.csv"$/);
  const csv = await custom.text();
  const lines = csv.replace(/^\uFEFF/, "").split("\r\n");
  expect(lines[0]).toMatch(/^Row,Template or period start,Issued \(credentials\),Email delivered \(credentials\),/);
  expect(lines[1]).toBe("All templates,,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
  expect(lines.filter((l) => l.startsWith("Day,2026-01-"))).toHaveLength(31);

  const allTime = await get("period=all");
  expect(allTime.headers.get("content-disposition")).toMatch(/-all-time_to_\d{4}-\d{2}-\d{2}\.csv"$/);
});
