// Helpers for the wallet specs (e2e/browser/wallet*.spec.ts, e2e/api/wallet-events*.spec.ts): issuing
// credentials through the API, reading back their interaction events, the wallet URLs the contract
// promises, and the recipient's email as the file transport wrote it.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { createDesign, createGroup, expectStatus, type Group } from "./api-helpers";
import type { Credential, Interaction } from "./credentials";
import type { ServerInfo } from "./state";

export type { Credential, Interaction } from "./credentials";

export type CredentialDesign = { id: string; name: string; previews: { format: string; url: string }[] };

/** A client address of its own (in 10/8), so that per-address rate limits do not couple tests. */
export function uniqueAddress(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${(b[2]! % 254) + 1}`;
}

/** The contract's default: PUBLIC_URL (and so WALLET_URL) is http://localhost:<PORT> when unset, as on the test servers. */
export function walletUrl(server: Pick<ServerInfo, "port">, publicId: string): string {
  return `http://localhost:${server.port}/credentials/${publicId}`;
}

/** Today (UTC) plus `offsetDays`, as YYYY-MM-DD. */
export function isoDate(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** A group of fresh designs (a certificate, then a badge when asked for). */
export async function walletGroup(
  api: APIRequestContext,
  options: { name?: string; badge?: boolean; learningEventUrl?: string } = {},
): Promise<Group> {
  const designIds = [(await createDesign(api, "certificate")).id];
  if (options.badge) designIds.push((await createDesign(api, "badge")).id);
  return createGroup(api, {
    designIds,
    ...(options.name ? { name: options.name } : {}),
    ...(options.learningEventUrl ? { learningEventUrl: options.learningEventUrl } : {}),
  });
}

/** create-issue-send: the way an issuer hands a credential to its recipient. */
export async function issueCredential(
  api: APIRequestContext,
  groupId: string,
  recipient: { name: string; email?: string },
  extra: Record<string, unknown> = {},
): Promise<Credential> {
  const credential = (await expectStatus(
    await api.post("/v1/credentials/create-issue-send", { data: { groupId, recipient, ...extra } }),
    201,
  )) as Credential;
  expect(credential.status).toBe("issued");
  return credential;
}

/** POST /v1/credentials: a draft. */
export async function draftCredential(
  api: APIRequestContext,
  groupId: string,
  recipient: { name: string; email?: string },
  extra: Record<string, unknown> = {},
): Promise<Credential> {
  return (await expectStatus(await api.post("/v1/credentials", { data: { groupId, recipient, ...extra } }), 201)) as Credential;
}

/** A credential that reads `expired`: a draft with past issue and expiry dates, then issued. */
export async function expiredCredential(
  api: APIRequestContext,
  groupId: string,
  recipient: { name: string; email?: string },
  dates: { issueDate: string; expiryDate: string } = { issueDate: "2020-01-15", expiryDate: "2021-06-30" },
): Promise<Credential> {
  const draft = await draftCredential(api, groupId, recipient, dates);
  const issued = (await expectStatus(await api.post(`/v1/credentials/${draft.id}/issue`), 200)) as Credential;
  expect(issued.status).toBe("expired");
  return issued;
}

/** A credential that reads `scheduled`: issued with an issue date in the future. */
export async function scheduledCredential(
  api: APIRequestContext,
  groupId: string,
  recipient: { name: string; email?: string },
): Promise<Credential> {
  const draft = await draftCredential(api, groupId, recipient, { issueDate: isoDate(30) });
  const issued = (await expectStatus(await api.post(`/v1/credentials/${draft.id}/issue`), 200)) as Credential;
  expect(issued.status).toBe("scheduled");
  return issued;
}

/** GET /v1/credentials/{id}/designs: per design of the group, in order, its PNG and PDF preview URLs. */
export async function credentialPreviews(
  api: APIRequestContext,
  credentialId: string,
): Promise<{ id: string; name: string; png: string; pdf: string }[]> {
  const designs = (await expectStatus(await api.get(`/v1/credentials/${credentialId}/designs`), 200)) as CredentialDesign[];
  return designs.map((d) => {
    const url = (format: string) => d.previews.find((p) => p.format === format)?.url;
    const png = url("png");
    const pdf = url("pdf");
    if (!png || !pdf) throw new Error(`no png/pdf preview URL in ${JSON.stringify(d)}`);
    return { id: d.id, name: d.name, png, pdf };
  });
}

/** Every interaction of a credential, oldest first (the list is newest first). */
export async function interactionsOf(api: APIRequestContext, credentialId: string): Promise<Interaction[]> {
  const items: Interaction[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const qs = new URLSearchParams({ credentialId, limit: "100", ...(cursor ? { cursor } : {}) });
    const body = await expectStatus(await api.get(`/v1/credential-interactions?${qs}`), 200);
    items.push(...(body.data as Interaction[]));
    cursor = body.pagination.next;
    if (!cursor) return items.sort((a, b) => a.triggeredAt.localeCompare(b.triggeredAt) || a.id.localeCompare(b.id));
  }
  throw new Error("interaction pagination did not end");
}

/** `eventType/triggeredBy` of each interaction, sorted: an order-free summary to compare exactly. */
export function eventSummary(events: Pick<Interaction, "eventType" | "triggeredBy">[]): string[] {
  return events.map((e) => `${e.eventType}/${e.triggeredBy}`).sort();
}

/** Waits until the credential's events are exactly `expected` (order-free `eventType/triggeredBy` list). */
export async function expectEvents(
  api: APIRequestContext,
  credentialId: string,
  expected: string[],
  timeout = 10_000,
): Promise<Interaction[]> {
  let last: Interaction[] = [];
  await expect
    .poll(
      async () => {
        last = await interactionsOf(api, credentialId);
        return eventSummary(last);
      },
      { timeout, message: `events of ${credentialId}` },
    )
    .toEqual([...expected].sort());
  return last;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/**
 * The wallet link in the credential's email, the one its recipient clicks. The test servers have no
 * SMTP_URL, so mail is written to DATA_DIR/mail/*.eml; waits for the queue to deliver it.
 */
export async function emailedWalletLink(
  server: Pick<ServerInfo, "dataDir">,
  credential: Pick<Credential, "publicId">,
  timeout = 45_000,
): Promise<string> {
  const dir = path.join(server.dataDir, "mail");
  let link: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
        } catch {
          return undefined;
        }
        for (const f of files) {
          let raw: string;
          try {
            raw = readFileSync(path.join(dir, f), "utf8");
          } catch {
            continue;
          }
          const text = decodeQuotedPrintable(raw);
          if (!text.includes(credential.publicId)) continue;
          link = text.match(new RegExp(`https?://[^\\s"'<>]*/credentials/${credential.publicId}[^\\s"'<>]*`))?.[0]?.replace(/&amp;/g, "&");
          if (link) return link;
        }
        return undefined;
      },
      { timeout, intervals: [250, 500, 1000], message: `an email with a link to ${credential.publicId} under ${dir}` },
    )
    .toBeTruthy();
  return link!;
}
