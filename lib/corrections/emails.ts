// The email a recipient gets when the issuer answers their name correction request: written in the
// credential email's language (its group's) and look (the organization's logo, colour and sender),
// queued through the mail outbox in the transaction of the decision. The name, title and reason are
// placeholders in the sentences, filled in escaped when the email is rendered.
import { createTranslator } from "use-intl/core";
import { credentialAttributeValues, walletUrl } from "../attribute-values/credential-values";
import type { Tx } from "../db";
import { DEFAULT_LOCALE, isSupportedLocale, type Locale } from "../i18n/locales";
import { messagesFor } from "../i18n/messages";
import { organizationEmailIdentity } from "../mail/organization-identity";
import { enqueueEmail } from "../mail/outbox";
import { noticeEmailTemplate, type NoticeSentences } from "../mail/template";

const ARGUMENTS = {
  organization: "[organization.name]",
  credential: "[group.name]",
  name: "[recipient.name]",
  requested: "[correction.requestedName]",
  reason: "[correction.reason]",
} as const;

export function correctionOutcomeSentences(outcome: "approved" | "rejected", language: Locale): NoticeSentences {
  const t = createTranslator({ locale: language, messages: messagesFor(language), namespace: "corrections" });
  const common = { button: t("emailButton"), openLink: t("emailOpenLink") };
  if (outcome === "approved") {
    return {
      subject: t("emailApprovedSubject", ARGUMENTS),
      heading: t("emailApprovedHeading"),
      paragraphs: [t("emailApprovedBody", ARGUMENTS)],
      ...common,
    };
  }
  return {
    subject: t("emailRejectedSubject", ARGUMENTS),
    heading: t("emailRejectedHeading"),
    paragraphs: [t("emailRejectedBody", ARGUMENTS), t("emailRejectedReason", ARGUMENTS)],
    ...common,
  };
}

/** Queues the outcome email of a decided request inside the decision's transaction (after any rename). */
export async function queueCorrectionOutcomeEmail(
  tx: Tx,
  organization: { id: string; name: string },
  request: { credentialId: string; requestedName: string; status: string; resolution: string | null },
): Promise<void> {
  const credential = await tx.credential.findUniqueOrThrow({
    where: { id: request.credentialId },
    include: { group: { select: { name: true, language: true } }, recipient: { select: { email: true } } },
  });
  if (!credential.recipient) return;
  const language = isSupportedLocale(credential.group.language) ? credential.group.language : DEFAULT_LOCALE;
  const identity = await organizationEmailIdentity(tx, organization.id);
  const outcome = request.status === "approved" ? "approved" : "rejected";
  const template = noticeEmailTemplate(correctionOutcomeSentences(outcome, language), identity.branding, language);
  await enqueueEmail(tx, {
    organizationId: organization.id,
    credentialId: credential.id,
    to: credential.recipient.email,
    template,
    values: {
      ...credentialAttributeValues({ credential, group: credential.group, organization }),
      "credential.url": walletUrl(credential.publicId, { recipient: true }),
      "correction.requestedName": request.requestedName,
      "correction.reason": request.resolution,
    },
    sender: identity.sender,
    branding: identity.branding,
    language,
    // Not the credential's own email: it must not make the credential read as "already emailed".
    kind: "correction_outcome",
  });
}
