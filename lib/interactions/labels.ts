// Every interaction event and funnel stage named in words, for the dashboard's analytics and activity
// lists (the dashboard is in English). One place, so a page, a chart and an export name a thing alike.
import type { EmailOutcomes, FunnelStage, SeriesBucket } from "./funnel";
import type { EventType, TriggeredBy } from "./schema";

const NETWORKS: Record<string, string> = {
  linkedin: "LinkedIn",
  facebook: "Facebook",
  twitter: "X (Twitter)",
  messenger: "Messenger",
  whatsapp: "WhatsApp",
  pinterest: "Pinterest",
  telegram: "Telegram",
  weibo: "Weibo",
};

const BY: Record<TriggeredBy, string> = { recipient: "by the recipient", guest: "by a guest" };

/** "Opened by the recipient", "Verified by a guest", "Shared to LinkedIn by the recipient", … */
export function eventLabel(type: EventType, triggeredBy: TriggeredBy): string {
  const by = BY[triggeredBy];
  if (type === "credential_viewed") return triggeredBy === "recipient" ? "Opened by the recipient" : "Viewed by a guest";
  if (type === "credential_added_to_linkedin_profile")
    return triggeredBy === "recipient" ? "Added to the recipient's LinkedIn profile" : "Added to a LinkedIn profile by a guest";
  if (type.startsWith("credential_shared_to_")) {
    const network = type.slice("credential_shared_to_".length);
    return `Shared to ${NETWORKS[network] ?? network} ${by}`;
  }
  if (type === "credential_downloaded") return `Downloaded ${by}`;
  if (type === "credential_link_copied") return `Link copied ${by}`;
  if (type === "credential_verified") return `Verified ${by}`;
  return type;
}

export const STAGE_LABELS: Record<FunnelStage, string> = {
  issued: "Issued",
  delivered: "Email delivered",
  opened: "Opened by the recipient",
  shared: "Shared or added to LinkedIn",
  verified: "Verified by a guest",
};

export const EMAIL_OUTCOME_LABELS: Record<Exclude<keyof EmailOutcomes, "delivered">, string> = {
  bounced: "Bounced (the receiving server refused the address)",
  failed: "Failed (not delivered after every retry)",
  waiting: "Waiting to be sent",
  notSent: "Not emailed",
};

export const BUCKET_LABELS: Record<SeriesBucket, string> = { day: "Day", week: "Week starting", month: "Month" };
