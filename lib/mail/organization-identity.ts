// How an organization's emails present it: the sender name and Reply-To kept with each queued row,
// and the logo and brand colour of the built-in body (lib/organizations/branding.ts sets them).
import { config } from "../config";
import type { SqlClient } from "../db";
import type { EmailSender } from "./outbox";
import type { EmailBranding } from "./template";
import { selectOrganizationEmailRow } from "./queries";

export type OrganizationEmailIdentity = { sender: EmailSender; branding: EmailBranding };

export async function organizationEmailIdentity(client: SqlClient, organizationId: string): Promise<OrganizationEmailIdentity> {
  const org = await selectOrganizationEmailRow(client, organizationId);
  if (!org) throw new Error(`no organization ${organizationId}`);
  // The logo's URL changes with every change to the organization, like the dashboard's, so a mail
  // client's cached copy of an older logo is not shown.
  const logoUrl = org.logoMimeType ? `${config().publicUrl}/organizations/${organizationId}/logo?v=${org.updatedAt.getTime()}` : null;
  return {
    sender: { fromName: org.senderName ?? org.name, replyTo: org.contactEmail },
    branding: { brandColor: org.brandColor, logoUrl, contactEmail: org.contactEmail },
  };
}
