// The attribute values of one credential, by the names designs and email templates use: what
// `[recipient.name]` becomes. A leaf (it imports only the configuration), so credentials, previews,
// mail and the wallet can all use it without importing one another.
import { config } from "../config";

export function walletUrl(publicId: string, options: { recipient?: boolean } = {}): string {
  return `${config().walletUrl}/credentials/${publicId}${options.recipient ? "?recipient=true" : ""}`;
}

export function credentialAttributeValues(input: {
  credential: {
    id: string;
    publicId: string;
    recipientName: string;
    issueDate: string;
    expiryDate: string | null;
    customAttributes: string;
  };
  group: { name: string };
  organization: { name: string };
}): Record<string, string | null> {
  const { credential, group, organization } = input;
  return {
    "recipient.name": credential.recipientName,
    "group.name": group.name,
    "organization.name": organization.name,
    "credential.issueDate": credential.issueDate,
    "credential.expiryDate": credential.expiryDate,
    "credential.id": credential.id,
    "credential.publicId": credential.publicId,
    "credential.url": walletUrl(credential.publicId),
    ...(JSON.parse(credential.customAttributes) as Record<string, string | null>),
  };
}
