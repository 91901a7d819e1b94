// The values a design's own preview (its `previewUrl`) is filled with: fixed, so the preview only
// changes when the design does.
import { config } from "../config";
import type { DesignType } from "./document";

function titleCase(tag: string): string {
  return tag.replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

export function sampleAttributeValues(type: DesignType, organizationName: string, attributes: readonly string[]): Record<string, string | null> {
  const builtin: Record<string, string> = {
    "recipient.name": "Alex Morgan",
    "group.name": type === "badge" ? "Data Analysis Expert" : "Advanced Data Analysis",
    "organization.name": organizationName,
    "credential.issueDate": "2026-01-15",
    "credential.expiryDate": "2028-01-15",
    "credential.id": "cred_sample",
    "credential.publicId": "00000000-0000-4000-8000-000000000000",
    "credential.url": `${config().walletUrl}/credentials/00000000-0000-4000-8000-000000000000`,
  };
  return Object.fromEntries(
    attributes.map((name) => [name, builtin[name] ?? (name.startsWith("custom.") ? titleCase(name.slice(7)) : null)]),
  );
}
