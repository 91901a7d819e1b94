import { requireMember } from "@/lib/auth/member";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event-types";
import { listWebhookAttempts, listWebhookEndpoints } from "@/lib/webhooks/service";
import styles from "../dashboard.module.css";
import { CreateWebhookForm, EndpointActions, RetryDeliveryButton } from "./webhook-forms";

export const metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

const RECENT_ATTEMPTS = 20;

function when(iso: string): string {
  return iso.replace("T", " ").slice(0, 19) + " UTC";
}

export default async function WebhooksPage() {
  const member = await requireMember();
  const organizationId = member.organization.id;
  const endpoints = (await listWebhookEndpoints(organizationId, { limit: 100 })).data;
  const logs = await Promise.all(endpoints.map((e) => listWebhookAttempts(organizationId, e.id, { limit: RECENT_ATTEMPTS })));
  return (
    <>
      <h1>Webhooks</h1>
      <p className={styles.lead}>
        Webhooks tell your systems when credentials and templates change: each event is POSTed to your URL, signed the Standard Webhooks
        way, and retried for 24 hours until it gets a 2xx answer. <a href="/docs#verify-webhook-signature">How to verify a signature</a>.
      </p>
      <section className={styles.section}>
        <h2>Add an endpoint</h2>
        <CreateWebhookForm eventTypes={WEBHOOK_EVENT_TYPES} />
      </section>
      {endpoints.length === 0 ? (
        <section className={styles.section}>
          <h2>Endpoints</h2>
          <p className={styles.muted}>No endpoints yet.</p>
        </section>
      ) : (
        endpoints.map((endpoint, i) => (
          <section key={endpoint.id} className={styles.section} data-webhook-id={endpoint.id}>
            <h2>
              <code>{endpoint.url}</code>{" "}
              {endpoint.enabled ? (
                <span className={styles.pill}>enabled</span>
              ) : (
                <span className={`${styles.pill} ${styles.pillGrey}`}>disabled</span>
              )}
            </h2>
            {endpoint.description && <p>{endpoint.description}</p>}
            {endpoint.disabledReason && <p className={`${styles.notice} ${styles.bad}`}>{endpoint.disabledReason}</p>}
            <p className={styles.muted}>
              Events: {endpoint.events.map((e) => (e === "*" ? "all" : e)).join(", ")}. Added {when(endpoint.createdAt)}.
            </p>
            <EndpointActions id={endpoint.id} url={endpoint.url} enabled={endpoint.enabled} />
            <h3>Recent deliveries</h3>
            {logs[i]!.data.length === 0 ? (
              <p className={styles.muted}>Nothing sent yet.</p>
            ) : (
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Event</th>
                    <th>Attempt</th>
                    <th>Result</th>
                    <th>Duration</th>
                    <th>Answer</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {logs[i]!.data.map((a) => (
                    <tr key={a.id}>
                      <td>{when(a.createdAt)}</td>
                      <td>
                        <code>{a.type}</code>
                        <br />
                        <small className={styles.muted}>{a.eventId}</small>
                      </td>
                      <td>{a.attempt}</td>
                      <td>
                        {a.status === "succeeded" ? (
                          <span className={styles.pill}>{a.responseStatus}</span>
                        ) : (
                          <span className={`${styles.pill} ${styles.pillRevoked}`}>{a.responseStatus ?? "failed"}</span>
                        )}
                        {a.error && (
                          <>
                            <br />
                            <small>{a.error}</small>
                          </>
                        )}
                      </td>
                      <td>{a.durationMs} ms</td>
                      <td>
                        {a.responseBodyExcerpt ? (
                          <code>{a.responseBodyExcerpt.slice(0, 200)}</code>
                        ) : (
                          <span className={styles.muted}>—</span>
                        )}
                      </td>
                      <td>{endpoint.enabled && <RetryDeliveryButton id={endpoint.id} eventId={a.eventId} />}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ))
      )}
    </>
  );
}
