// How the dashboard names where a credential's email stands, from its newest outbox row
// (lib/mail/outbox.ts `latestCredentialEmails`): the credentials table and the overview say the same.
import type { LatestCredentialEmail } from "@/lib/mail/outbox";

export type EmailStatus = {
  label: "queued" | "sent" | "failed" | "cancelled" | "not sent";
  /** When it went out (ISO), for "sent". */
  sentAt: string | null;
  /** A sentence for the tooltip and screen readers. */
  description: string;
};

export function emailStatusOf(email: LatestCredentialEmail | undefined): EmailStatus {
  if (!email) return { label: "not sent", sentAt: null, description: "No email was sent for this credential." };
  switch (email.status) {
    case "sent":
      return {
        label: "sent",
        sentAt: email.sentAt?.toISOString() ?? null,
        description: `Sent${email.sentAt ? ` on ${email.sentAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : ""}.`,
      };
    case "queued":
      return {
        label: "queued",
        sentAt: null,
        description:
          email.attempts > 0
            ? `Waiting to be sent; ${email.attempts} attempt${email.attempts === 1 ? "" : "s"} failed so far and it will be retried.`
            : "Waiting to be sent.",
      };
    case "failed":
      return {
        label: "failed",
        sentAt: null,
        description: `Could not be delivered after ${email.attempts} attempt${email.attempts === 1 ? "" : "s"}; see the credential's page.`,
      };
    default:
      // Cancelled: the credential was revoked before the email went out.
      return { label: "cancelled", sentAt: null, description: "Cancelled before it went out." };
  }
}
