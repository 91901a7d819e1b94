import Link from "next/link";
import { requireMember } from "@/lib/auth/member";
import { config } from "@/lib/config";
import { listCredentials } from "@/lib/credentials/service";
import { listGroups } from "@/lib/groups/service";
import { latestCredentialEmails } from "@/lib/mail/outbox";
import { gettingStartedFacts, type GettingStartedFacts } from "@/lib/organizations/getting-started";
import { organizationTotals, organizationUsage } from "@/lib/organizations/service";
import { emailStatusOf } from "./credentials/email-status";
import styles from "./dashboard.module.css";
import { UsageMeter } from "./usage-meter";

export const metadata = { title: "Overview" };

const RECENT = 5;

type Step = { done: keyof GettingStartedFacts; title: string; text: string; href: string; action: string };

/** The first steps, in the order they build on each other. */
const STEPS: Step[] = [
  {
    done: "ownDesign",
    title: "Make a design your own",
    text: "Copy a starter design or start a blank one, and put your name, colours and logo on it.",
    href: "/dashboard/designs",
    action: "Open designs",
  },
  {
    done: "template",
    title: "Create a credential template",
    text: "A template is the course or award: its designs, expiry and the email recipients get.",
    href: "/dashboard/templates",
    action: "Create a template",
  },
  {
    done: "issued",
    title: "Issue your first credential",
    text: "Name the recipient and send it; they get an email with a link to their credential.",
    href: "/dashboard/credentials#new-credential",
    action: "Issue a credential",
  },
  {
    done: "apiToken",
    title: "Create an API token",
    text: "Issue from your own systems (a learning platform, a CRM) through the REST API.",
    href: "/dashboard/tokens",
    action: "Create a token",
  },
  {
    done: "verifiedDomain",
    title: "Verify your website domain",
    text: "Until you do, every credential you issue says “issuer identity not verified”: prove your website is yours and they name it.",
    href: "/dashboard/settings#domain-heading",
    action: "Verify your domain",
  },
];

function dateOf(iso: string): string {
  return iso.slice(0, 10);
}

export default async function OverviewPage() {
  const member = await requireMember();
  const organization = member.organization;
  const [facts, recent, groups, totals, usage] = await Promise.all([
    gettingStartedFacts(organization.id),
    listCredentials(organization, { limit: RECENT }),
    listGroups(organization.id, { limit: 100 }),
    organizationTotals(organization.id),
    organizationUsage(organization),
  ]);
  const emails = await latestCredentialEmails(
    organization.id,
    recent.data.map((c) => c.id),
  );
  const groupName = new Map(groups.data.map((g) => [g.id, g.name]));
  const done = STEPS.filter((s) => facts[s.done]).length;
  const next = STEPS.find((s) => !facts[s.done]);
  const stats = [
    { label: "Credentials", value: totals.credentials },
    { label: "Credential templates", value: totals.groups },
    { label: "Designs", value: totals.designs },
    { label: "Active API tokens", value: totals.activeTokens },
  ];
  return (
    <>
      <div className={styles.pageHeader}>
        <div>
          <h1>{organization.name}</h1>
          <p className={styles.lead}>Welcome, {member.user.name}.</p>
        </div>
        <Link className={styles.primaryLink} href="/dashboard/credentials#new-credential">
          Issue a credential
        </Link>
      </div>

      <section className={styles.section} aria-labelledby="steps-heading">
        <h2 id="steps-heading">Getting started</h2>
        <p className={styles.muted} data-testid="steps-progress">
          {done === STEPS.length ? "All done: you are set up to issue." : `${done} of ${STEPS.length} done.`}
        </p>
        <ol className={styles.steps}>
          {STEPS.map((step) => {
            const isDone = facts[step.done];
            return (
              <li key={step.done} className={isDone ? styles.stepDone : step === next ? styles.stepNext : undefined} data-done={isDone}>
                <span className={styles.stepMark} aria-hidden="true">
                  {isDone ? "✓" : ""}
                </span>
                <div>
                  <strong>
                    {step.title}
                    <span className={styles.visuallyHidden}>{isDone ? " (done)" : " (to do)"}</span>
                  </strong>
                  <p className={styles.muted}>{step.text}</p>
                </div>
                {!isDone && (
                  <Link className={step === next ? styles.button : styles.secondary} href={step.href}>
                    {step.action}
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </section>

      <section className={styles.section} aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent activity</h2>
        {recent.data.length === 0 ? (
          <p className={styles.muted}>No credentials yet. The ones you create, issue and send show here.</p>
        ) : (
          <>
            <ul className={styles.activity} aria-label="Latest credentials">
              {recent.data.map((c) => {
                const email = emailStatusOf(emails.get(c.id));
                return (
                  <li key={c.id}>
                    <div>
                      <Link href={`/dashboard/credentials/${c.id}`}>{c.attributes["recipient.name"] ?? c.id}</Link>
                      <span className={styles.muted}> · {groupName.get(c.groupId) ?? c.groupId}</span>
                    </div>
                    <div className={styles.activityState}>
                      {c.revokedAt !== null ? (
                        <span className={`${styles.pill} ${styles.pillRevoked}`}>revoked</span>
                      ) : (
                        <span className={c.status === "issued" ? styles.pill : `${styles.pill} ${styles.pillGrey}`}>{c.status}</span>
                      )}
                      <span className={styles.muted} title={email.description}>
                        email {email.label}
                      </span>
                      <time className={styles.muted} dateTime={c.createdAt}>
                        {dateOf(c.createdAt)}
                      </time>
                    </div>
                  </li>
                );
              })}
            </ul>
            <p>
              <Link href="/dashboard/credentials">All credentials →</Link>
            </p>
          </>
        )}
      </section>

      <div className={styles.grid}>
        {stats.map((s) => (
          <div className={styles.stat} key={s.label}>
            <strong>{s.value}</strong>
            <span>{s.label}</span>
          </div>
        ))}
      </div>
      <section className={styles.section}>
        <h2>This month</h2>
        <UsageMeter usage={usage} />
      </section>
      <section className={styles.section} aria-labelledby="api-heading">
        <h2 id="api-heading">For developers</h2>
        <p>
          API base URL: <code>{config().publicUrl}/v1</code> · <a href="/docs">API reference</a>
        </p>
        <p>
          <Link href="/dashboard/tokens">Create an API token</Link>, then:
        </p>
        <pre tabIndex={0} aria-label="Example request">{`curl ${config().publicUrl}/v1/groups \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Service-Version: 2022-10-26"`}</pre>
      </section>
    </>
  );
}
