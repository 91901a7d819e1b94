import Link from "next/link";
import { requireMember } from "@/lib/auth/member";
import { CORRECTION_STATUSES, type CorrectionStatus } from "@/lib/corrections/schema";
import { correctionQueue, type QueuedCorrection } from "@/lib/corrections/service";
import styles from "../dashboard.module.css";
import own from "./corrections.module.css";
import { CorrectionDecision, CorrectionQueue } from "./correction-forms";

export const metadata = { title: "Corrections" };
export const dynamic = "force-dynamic";

const TAB_LABELS: Record<CorrectionStatus, string> = { open: "Open", approved: "Approved", rejected: "Rejected" };

/** "5 minutes ago", "3 days ago": how long a request has waited or since it was decided. */
function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  const [amount, unit] =
    minutes < 60 ? [minutes, "minute"] : minutes < 48 * 60 ? [Math.round(minutes / 60), "hour"] : [Math.round(minutes / 1440), "day"];
  return amount === 0 ? "just now" : `${amount} ${unit}${amount === 1 ? "" : "s"} ago`;
}

function CorrectionItem({ request }: { request: QueuedCorrection }) {
  return (
    <li className={own.item} data-correction-id={request.id}>
      <h3>
        <Link href={`/dashboard/credentials/${request.credentialId}`}>{request.credentialTitle}</Link>
      </h3>
      <div className={own.names}>
        <span className={styles.visuallyHidden}>Name now:</span>
        <bdi className={own.current}>{request.currentName}</bdi>
        <span aria-hidden="true">→</span>
        <span className={styles.visuallyHidden}>requested:</span>
        <bdi className={own.requested}>{request.requestedName}</bdi>
      </div>
      {request.note && <p className={own.note}>{request.note}</p>}
      <div className={own.meta}>
        Asked {age(request.createdAt)}
        {request.resolvedAt && (
          <>
            {" "}
            · {request.status} {age(request.resolvedAt)}
          </>
        )}
      </div>
      {request.status === "rejected" && request.resolution && (
        <div>
          <span className={`${styles.pill} ${styles.pillGrey}`}>Reason</span> {request.resolution}
        </div>
      )}
      {request.status === "open" && (
        <CorrectionDecision id={request.id} summary={`${request.credentialTitle}, ${request.currentName} → ${request.requestedName}`} />
      )}
    </li>
  );
}

export default async function CorrectionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const member = await requireMember();
  const asked = (await searchParams).status;
  const status: CorrectionStatus = CORRECTION_STATUSES.find((s) => s === asked) ?? "open";
  const requests = await correctionQueue(member.organization.id, status);
  return (
    <>
      <h1>Corrections</h1>
      <p className={styles.lead}>
        Recipients ask here for the name on a credential to be corrected. Approving changes the name exactly as editing the credential would
        (new images and signed document, the same link); either way the recipient gets an email.
      </p>
      <nav className={own.tabs} aria-label="Correction requests by status">
        {CORRECTION_STATUSES.map((s) => (
          <Link
            key={s}
            href={s === "open" ? "/dashboard/corrections" : `/dashboard/corrections?status=${s}`}
            aria-current={s === status ? "page" : undefined}
          >
            {TAB_LABELS[s]}
          </Link>
        ))}
      </nav>
      <section className={styles.section}>
        <h2>{status === "open" ? "Waiting for you, oldest first" : `${TAB_LABELS[status]}, newest first`}</h2>
        <CorrectionQueue>
          {requests.length === 0 ? (
            <p className={styles.muted}>{status === "open" ? "No open requests." : `No ${status} requests yet.`}</p>
          ) : (
            <ul className={own.list}>
              {requests.map((r) => (
                <CorrectionItem key={r.id} request={r} />
              ))}
            </ul>
          )}
        </CorrectionQueue>
      </section>
    </>
  );
}
