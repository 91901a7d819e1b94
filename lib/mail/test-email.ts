// A credential template's email, rendered with sample values (the dashboard's preview) and sent to the
// issuer as a test through the same outbox as real credentials' emails.
import { db } from "../db";
import { getGroup } from "../groups/service";
import { sampleAttributeValues } from "../render/attributes";
import { walletUrl } from "../attribute-values/credential-values";
import { nudgeMailWorker } from "./nudge";
import { organizationEmailIdentity } from "./organization-identity";
import { enqueueEmail } from "./outbox";
import { renderEmail, type RenderedEmail } from "./template";

async function sampleEmail(organization: { id: string; name: string }, groupId: string) {
  const group = await getGroup(organization.id, groupId);
  const values = {
    ...sampleAttributeValues("certificate", { organizationName: organization.name }),
    "group.name": group.name,
    "credential.url": walletUrl("00000000-0000-4000-8000-000000000000", { recipient: true }),
  };
  const template = {
    subject: group.emailTemplate?.subject ?? null,
    html: group.emailTemplate?.html ?? null,
    text: group.emailTemplate?.text ?? null,
  };
  // The organization's sender name, Reply-To, logo and colour, as its credentials' emails have them.
  const identity = await organizationEmailIdentity(db(), organization.id);
  return { template, values, identity, language: group.language };
}

export async function previewGroupEmail(organization: { id: string; name: string }, groupId: string): Promise<RenderedEmail> {
  const { template, values, identity, language } = await sampleEmail(organization, groupId);
  return renderEmail(template, values, identity.branding, language);
}

/** Queues the template's email, with sample values and "[Test]" in the subject, to `to`. */
export async function sendGroupTestEmail(organization: { id: string; name: string }, groupId: string, to: string): Promise<void> {
  const { template, values, identity, language } = await sampleEmail(organization, groupId);
  const subject = `[Test] ${renderEmail(template, values, {}, language).subject}`;
  await db().$transaction((tx) =>
    enqueueEmail(tx, {
      organizationId: organization.id,
      credentialId: null,
      to,
      template: { ...template, subject },
      values,
      ...identity,
      language,
    }),
  );
  nudgeMailWorker();
}
