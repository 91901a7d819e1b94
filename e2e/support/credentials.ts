// Builders and checks shared by the credential, interaction and email specs.
import { mkdirSync, mkdtempSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { createDesign, createGroup, expectStatus, listAll, type Group } from "./api-helpers";
import { EXTRA_SERVER_ENV, startAppServer, type RunningServer } from "./servers";

export type Recipient = { id: string; name: string; email: string };
export type Credential = {
  id: string;
  publicId: string;
  groupId: string;
  status: "draft" | "scheduled" | "issued" | "expired";
  recipient: Recipient | null;
  issueDate: string;
  expiryDate: string | null;
  attributes: Record<string, string | null>;
  customAttributes: Record<string, string | null>;
  revokedAt: string | null;
  revocationReason: string | null;
  createdAt: string;
  updatedAt: string;
};
export type Interaction = { id: string; credentialId: string; eventType: string; triggeredBy: "recipient" | "guest"; triggeredAt: string };

/** The spec's Credential fields: every one is always present. */
export const CREDENTIAL_KEYS = [
  "attributes",
  "createdAt",
  "customAttributes",
  "expiryDate",
  "groupId",
  "id",
  "issueDate",
  "publicId",
  "recipient",
  "revocationReason",
  "revokedAt",
  "status",
  "updatedAt",
];
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every spec field present with its type; null only where the spec allows it. */
export function expectCredentialShape(c: Credential): void {
  expect(Object.keys(c), JSON.stringify(c)).toEqual(expect.arrayContaining(CREDENTIAL_KEYS));
  expect(typeof c.id).toBe("string");
  expect(c.publicId).toMatch(UUID);
  expect(typeof c.groupId).toBe("string");
  expect(["draft", "scheduled", "issued", "expired"]).toContain(c.status);
  if (c.recipient !== null) {
    expect(c.recipient).toEqual({ id: expect.any(String), name: expect.any(String), email: expect.any(String) });
  }
  expect(c.issueDate).toMatch(DATE);
  if (c.expiryDate !== null) expect(c.expiryDate).toMatch(DATE);
  expect(c.attributes).toEqual(expect.objectContaining({ "recipient.name": expect.any(String) }));
  expect(c.customAttributes !== null && typeof c.customAttributes === "object" && !Array.isArray(c.customAttributes)).toBe(true);
  expect(c.createdAt).toMatch(ISO_DATE_TIME);
  expect(c.updatedAt).toMatch(ISO_DATE_TIME);
  if (c.revokedAt !== null) expect(c.revokedAt).toMatch(ISO_DATE_TIME);
  expect(c.revocationReason === null || typeof c.revocationReason === "string").toBe(true);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** `date` (YYYY-MM-DD) plus `days` days, UTC. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function uniqueEmail(label = "r"): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** A design and a group using it; `extra` adds group fields (expiryPeriod, emailTemplate, ...). */
export async function newGroup(api: APIRequestContext, extra: Record<string, unknown> = {}): Promise<Group & Record<string, unknown>> {
  const design = await createDesign(api, "certificate");
  return createGroup(api, { designIds: [design.id], ...extra });
}

export async function createCredential(api: APIRequestContext, body: Record<string, unknown>): Promise<Credential> {
  return expectStatus(await api.post("/v1/credentials", { data: body }), 201);
}

export async function getCredential(api: APIRequestContext, id: string): Promise<Credential> {
  return expectStatus(await api.get(`/v1/credentials/${id}`), 200);
}

export async function issue(api: APIRequestContext, id: string): Promise<Credential> {
  return expectStatus(await api.post(`/v1/credentials/${id}/issue`), 200);
}

export async function allCredentials(api: APIRequestContext): Promise<Credential[]> {
  return listAll<Credential>(api, "/v1/credentials");
}

/** An app server with its own database and DATA_DIR that the test can SIGKILL and start again. */
export type OwnServer = RunningServer & { kill: () => Promise<void>; dataDir: string; databaseUrl: string };

export function newDataDir(runDir: string, label: string): string {
  mkdirSync(path.join(runDir, "own"), { recursive: true });
  return mkdtempSync(path.join(runDir, "own", `${label}-`));
}

/** `npm start` with `env` (DATABASE_URL and DATA_DIR required); `kill()` sends SIGKILL to the whole process group. */
export async function startOwnServer(env: Record<string, string>, logFile: string): Promise<OwnServer> {
  const s = await startAppServer({ ...EXTRA_SERVER_ENV, ...env }, logFile);
  const kill = async () => {
    try {
      process.kill(-s.pid, "SIGKILL");
    } catch {
      return;
    }
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        process.kill(-s.pid, 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await s.stop();
  };
  return { ...s, kill, dataDir: env.DATA_DIR!, databaseUrl: env.DATABASE_URL! };
}
