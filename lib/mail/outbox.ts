// The durable outbox: an email is a row written in the same transaction as the state change that
// asked for it; the worker (worker.ts) delivers it. Nothing accepted is lost across a restart.
import { config } from "../config";
import type { Tx } from "../db";
import { newId } from "../db/ids";
import type { AttributeValues } from "../render/attributes";
import { renderEmail, type EmailTemplate } from "./template";

function messageIdFor(outboxId: string): string {
  const host = new URL(config().publicUrl).hostname || "localhost";
  return `<${outboxId}@${host}>`;
}

export async function enqueueEmail(
  tx: Tx,
  input: { organizationId: string; credentialId: string | null; to: string; template: EmailTemplate; values: AttributeValues },
): Promise<string> {
  const id = newId("mail");
  const rendered = renderEmail(input.template, input.values);
  const now = new Date();
  // Plain SQL: one of these is written with every credential sent (see bench:issue).
  await tx.$executeRaw`
    INSERT INTO "EmailOutbox" ("id", "organizationId", "credentialId", "messageId", "toAddress", "subject", "html", "text",
      "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
    VALUES (${id}, ${input.organizationId}, ${input.credentialId}, ${messageIdFor(id)}, ${input.to}, ${rendered.subject},
      ${rendered.html}, ${rendered.text}, 'queued', 0, ${now}, ${now}, ${now})`;
  return id;
}

/** Queued emails of a credential that is being deleted are not sent: their link would not open. */
export async function cancelQueuedEmails(tx: Tx, credentialId: string): Promise<void> {
  await tx.emailOutbox.updateMany({ where: { credentialId, status: "queued" }, data: { status: "cancelled", leaseUntil: null } });
}
