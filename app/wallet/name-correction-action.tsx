// A credential card's "Request a name correction" action on /wallet: the state of the recipient's last
// request, and a link to the form on the credential's page (which opens it), unless a request is open
// or the credential is revoked. The list's requests are read once for the whole page
// (latestCorrectionRequests), not per card.
import { getTranslations } from "next-intl/server";
import type { ApiCorrectionRequest } from "@/lib/corrections/schema";
import type { Locale } from "@/lib/i18n/locales";
import { statusLine } from "@/app/credentials/[publicId]/name-correction";
import styles from "./name-correction-action.module.css";

export async function NameCorrectionAction(props: {
  publicId: string;
  revoked: boolean;
  correction: ApiCorrectionRequest | null;
  locale: Locale;
}) {
  const t = await getTranslations({ locale: props.locale, namespace: "corrections" });
  const canAsk = !props.revoked && props.correction?.status !== "open";
  if (!props.correction && !canAsk) return null;
  return (
    <div className={styles.action} data-testid="card-name-correction">
      {props.correction && (
        <p className={styles.status} data-status={props.correction.status} dir="auto">
          {statusLine(t, props.correction)}
        </p>
      )}
      {canAsk && (
        <a className={styles.link} href={`/credentials/${props.publicId}#name-correction`}>
          {t("action")}
        </a>
      )}
    </div>
  );
}
