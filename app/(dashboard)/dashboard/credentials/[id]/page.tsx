import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { walletUrl } from "@/lib/attribute-values/credential-values";
import { getCredential } from "@/lib/credentials/service";
import { getGroup } from "@/lib/groups/service";
import { eventLabel } from "@/lib/interactions/labels";
import { listInteractions } from "@/lib/interactions/service";
import { credentialEmails } from "@/lib/mail/outbox";
import { shownCredentialDesigns } from "@/lib/previews/credential-designs";
import styles from "../../dashboard.module.css";
import { ScrollRegion } from "../../scroll-region";
import { CredentialRowActions, DeleteCredentialForm, RevokeCredentialForm } from "../credential-forms";
import { emailStatusOf } from "../email-status";

const NO_EMAIL = { id: null, label: "not sent", sentAt: null } as const;
import { EditCredentialDetails } from "./edit-credential-form";

export const metadata = { title: "Credential" };

function when(date: Date | string | null): string {
  if (!date) return "—";
  return new Date(date).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

export default async function CredentialPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const organization = member.organization;
  let credential;
  try {
    credential = await getCredential(organization, id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
  const [group, designs, emails, events] = await Promise.all([
    getGroup(organization.id, credential.groupId),
    shownCredentialDesigns(organization, id),
    credentialEmails(organization.id, id),
    listInteractions(organization.id, { credentialId: id, limit: 100 }),
  ]);
  const revoked = credential.revokedAt !== null;
  // Its newest own email (newest first; a reminder that it expires is not "emailed").
  const ownEmail = emails.find((m) => m.kind === "credential");
  const name = credential.attributes["recipient.name"] ?? credential.id;
  const details = (
    <table className={styles.table}>
      <tbody>
        <tr>
          <th>Recipient</th>
          <td>
            {credential.recipient
              ? `${credential.recipient.name} <${credential.recipient.email}>`
              : `${credential.attributes["recipient.name"]} (no email)`}
          </td>
        </tr>
        <tr>
          <th>Issue date</th>
          <td>{credential.issueDate}</td>
        </tr>
        <tr>
          <th>Expiry date</th>
          <td>{credential.expiryDate ?? "never"}</td>
        </tr>
        <tr>
          <th>Credential id</th>
          <td>
            <code>{credential.id}</code>
          </td>
        </tr>
        <tr>
          <th>Public id</th>
          <td>
            <code>{credential.publicId}</code>
          </td>
        </tr>
        <tr>
          <th>Created</th>
          <td>{when(credential.createdAt)}</td>
        </tr>
        <tr>
          <th>Updated</th>
          <td>{when(credential.updatedAt)}</td>
        </tr>
        {Object.entries(credential.customAttributes).map(([key, value]) => (
          <tr key={key}>
            <th>{key}</th>
            <td>{value ?? <span className={styles.muted}>empty</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <>
      <p>
        <Link href="/dashboard/credentials">← Credentials</Link>
      </p>
      <h1>{credential.attributes["recipient.name"]}</h1>
      <p className={styles.lead}>
        {group.name} · <span className={styles.pill}>{credential.status}</span>
        {revoked && (
          <>
            {" "}
            · <span className={`${styles.pill} ${styles.pillRevoked}`}>revoked</span>
          </>
        )}{" "}
        · issue date {credential.issueDate}
        {credential.expiryDate ? ` · expires ${credential.expiryDate}` : ""}
      </p>
      {credential.revokedAt !== null && (
        <div className={`${styles.notice} ${styles.bad}`} role="status" data-testid="revoked-state">
          <strong>Revoked</strong> on {when(credential.revokedAt)}.{" "}
          {credential.revocationReason !== null ? <>Reason: {credential.revocationReason}</> : "No reason was given."} Revocation is final:
          the credential can no longer be sent or changed.
        </div>
      )}
      <div className={styles.actions} style={{ marginBottom: 20 }}>
        <CredentialRowActions
          id={credential.id}
          name={name}
          status={credential.status}
          canSend={Boolean(credential.recipient?.email)}
          revoked={revoked}
          email={
            ownEmail
              ? {
                  id: ownEmail.id,
                  label: emailStatusOf({ ...ownEmail, attempts: ownEmail.attempts.length }).label,
                  sentAt: ownEmail.sentAt?.toISOString() ?? null,
                }
              : NO_EMAIL
          }
        />
        {credential.status !== "draft" && (
          <a className={styles.secondary} href={walletUrl(credential.publicId)} target="_blank" rel="noreferrer">
            Open wallet page
          </a>
        )}
        {/* Drafts are deleted rather than revoked (they were never issued). */}
        {!revoked && credential.status !== "draft" && <RevokeCredentialForm id={credential.id} />}
        <DeleteCredentialForm id={credential.id} name={name} canRevoke={!revoked && credential.status !== "draft"} />
      </div>
      <section className={styles.section} aria-labelledby="previews-heading">
        <h2 id="previews-heading">Previews</h2>
        <div className={styles.cards}>
          {designs.map((d) => {
            const png = d.previews.find((p) => p.format === "png")!.url;
            const pdf = d.previews.find((p) => p.format === "pdf")!.url;
            if (d.unsupportedText !== null) {
              // Its preview URLs answer 422: say why, and what the wallet shows instead.
              return (
                <article className={styles.card} key={d.id} data-testid="unsupported-preview">
                  <p className={`${styles.notice} ${styles.bad}`}>This design cannot draw this credential: {d.unsupportedText}.</p>
                  <p className={styles.muted}>
                    The wallet page shows the credential as text instead, without downloads.{" "}
                    {revoked
                      ? "A revoked credential cannot be changed."
                      : credential.recipient
                        ? "Correct the text with Edit details below (the recipient name or an attribute), or use a design whose texts leave it out."
                        : "Correct an attribute with Edit details below, or use a design whose texts leave it out; the name of a credential without a recipient email cannot be changed (delete it and create it again)."}
                  </p>
                  <div>
                    <strong>{d.name}</strong>
                  </div>
                </article>
              );
            }
            return (
              <article className={styles.card} key={d.id}>
                <img src={png} alt={`${d.name} for ${credential.attributes["recipient.name"]}`} loading="lazy" />
                <div>
                  <strong>{d.name}</strong> · <a href={png}>PNG</a> · <a href={pdf}>PDF</a>
                </div>
              </article>
            );
          })}
        </div>
      </section>
      <section className={styles.section} aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        {revoked ? (
          details
        ) : (
          <EditCredentialDetails
            credential={{
              id: credential.id,
              recipientId: credential.recipient?.id ?? null,
              name,
              email: credential.recipient?.email ?? null,
              issueDate: credential.issueDate,
              expiryDate: credential.expiryDate,
              customAttributes: credential.customAttributes,
            }}
          >
            {details}
          </EditCredentialDetails>
        )}
      </section>
      <section className={styles.section}>
        <h2>Emails</h2>
        {emails.length === 0 ? (
          <p className={styles.muted}>No email sent yet.</p>
        ) : (
          <ScrollRegion label="Emails">
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>To</th>
                  <th>Subject</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th>Queued</th>
                </tr>
              </thead>
              <tbody>
                {emails.map((m) => (
                  <tr key={m.id} data-email-status={m.status}>
                    <td>{m.to}</td>
                    <td>
                      {m.subject}
                      {m.kind === "expiry_reminder" && <div className={styles.muted}>expiry reminder</div>}
                      {m.kind === "correction_outcome" && <div className={styles.muted}>name correction answer</div>}
                    </td>
                    <td>
                      <span className={m.status === "sent" ? styles.pill : `${styles.pill} ${styles.pillGrey}`}>{m.status}</span>
                      {m.status === "queued" && m.attempts.length > 0 && (
                        <div className={styles.muted}>next try {when(m.nextAttemptAt)}</div>
                      )}
                      {m.sentAt && <div className={styles.muted}>{when(m.sentAt)}</div>}
                    </td>
                    <td>
                      {m.attempts.length === 0
                        ? "—"
                        : m.attempts.map((a, i) => (
                            <div key={i} className={styles.muted}>
                              {when(a.startedAt)}: {a.outcome}
                              {a.error ? ` (${a.error})` : ""}
                            </div>
                          ))}
                    </td>
                    <td>{when(m.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
      <section className={styles.section}>
        <h2>Activity</h2>
        {events.data.length === 0 ? (
          <p className={styles.muted}>Nobody has opened it yet.</p>
        ) : (
          <ScrollRegion label="Activity">
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>When</th>
                  <th>What happened</th>
                </tr>
              </thead>
              <tbody>
                {events.data.map((e) => (
                  <tr key={e.id}>
                    <td>{when(e.triggeredAt)}</td>
                    <td data-event={e.eventType}>{eventLabel(e.eventType, e.triggeredBy)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </>
  );
}
