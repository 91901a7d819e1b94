// The recipient's "Request a name correction" part of a credential's wallet page. The server knows a
// signed-in recipient from the wallet session: to them it shows the state of their last request and,
// unless one is open or the credential is revoked, the form. To a browser that only holds the
// recipient mark (from the email's link) it offers to sign in first; to anyone else, nothing.
import { getTranslations } from "next-intl/server";
import type { Locale } from "@/lib/i18n/locales";
import { correctionRequestsIfRecipient } from "@/lib/corrections/service";
import type { ApiCorrectionRequest } from "@/lib/corrections/schema";
import { currentWalletSession } from "@/lib/wallet/session";
import { NameCorrectionForm, SignInToCorrect, type NameCorrectionText } from "./name-correction-form";
import styles from "./name-correction.module.css";

export type CorrectionsT = Awaited<ReturnType<typeof getTranslations<"corrections">>>;

/** What the recipient reads about their last request (here and on /wallet's cards). */
export function statusLine(t: CorrectionsT, request: ApiCorrectionRequest): string {
  if (request.status === "open") return t("statusOpen", { name: request.requestedName });
  if (request.status === "approved") return t("statusApproved", { name: request.requestedName });
  return t("statusRejected", { name: request.requestedName, reason: request.resolution ?? "" });
}

export function nameCorrectionText(t: CorrectionsT, organization: string, currentName: string): NameCorrectionText {
  return {
    action: t("action"),
    intro: t("formIntro", { organization }),
    currentName: t("currentName", { name: currentName }),
    nameLabel: t("nameLabel"),
    noteLabel: t("noteLabel"),
    submit: t("submit"),
    sending: t("sending"),
    cancel: t("cancel"),
    sent: t("sent", { organization }),
    signInFirst: t("signInFirst"),
    signIn: t("signIn"),
    errorName: t("errorName"),
    errorNote: t("errorNote"),
    errorConflict: t("errorConflict"),
    errorSession: t("errorSession"),
    errorGeneric: t("errorGeneric"),
  };
}

export async function NameCorrection(props: {
  publicId: string;
  locale: Locale;
  organization: string;
  currentName: string;
  revoked: boolean;
}) {
  const t = await getTranslations({ locale: props.locale, namespace: "corrections" });
  const text = nameCorrectionText(t, props.organization, props.currentName);
  const session = await currentWalletSession();
  const requests = session ? await correctionRequestsIfRecipient(session.email, props.publicId) : null;
  if (!requests) {
    // Signed out (or signed in as someone else): only a browser with the recipient mark is offered to sign in.
    return props.revoked ? null : <SignInToCorrect publicId={props.publicId} text={text} />;
  }
  const latest = requests[0] ?? null;
  const canAsk = !props.revoked && latest?.status !== "open";
  if (!latest && !canAsk) return null;
  return (
    <section id="name-correction" className={styles.correction} aria-label={text.action} data-testid="name-correction">
      {latest && (
        <p className={styles.status} data-testid="name-correction-status" data-status={latest.status} dir="auto">
          {statusLine(t, latest)}
        </p>
      )}
      {canAsk && <NameCorrectionForm publicId={props.publicId} currentName={props.currentName} text={text} />}
    </section>
  );
}
