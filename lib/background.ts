// Work the server does on its own, started once per server process from instrumentation.ts:
// delivering queued email and webhook events, issuing scheduled credentials whose date has come,
// sending expiry reminders and expired notices, running confirmed CSV imports, forgetting kept idempotent answers past their 24 hours and old
// webhook events past their 30 days, and re-checking verified domains.
import { recheckDueDomainClaims } from "./domains/service";
import { deleteExpiredIdempotencyRecords } from "./idempotency/service";
import { retireExpiredSignInLinks } from "./accounts/sign-in-link";
import { retireExpiredWalletSignInLinks } from "./wallet/sign-in-link";
import { retireExpiredWalletSessions } from "./wallet/session";
import { retireExpiredOid4vciRows } from "./oid4vci/retention";
import { retireExpiredPasswordResets } from "./auth/password-reset";
import { promoteDueScheduledCredentials } from "./credentials/service";
import { processDueExpiryNotices } from "./credentials/expiry-notices";
import { setImportNudge } from "./imports/nudge";
import { runImportJobs } from "./imports/runner";
import { errorSummary, log } from "./log";
import { setMailNudge } from "./mail/nudge";
import { mailTransport } from "./mail/transport";
import { mailDelivery, type MailDelivery } from "./mail/worker";
import { setWebhookNudge } from "./webhooks/nudge";
import { webhookDelivery, type WebhookDelivery } from "./webhooks/worker";
import { deleteOldWebhookEvents } from "./webhooks/retention";
import { processSlot } from "./core/process-singleton";

const MAIL_POLL_MS = 1000;
// Events are written by the transactions of ordinary requests, which do not nudge: a short poll keeps
// the delay from a change to its delivery well under the 2 s goal.
const WEBHOOK_POLL_MS = 250;
const SCHEDULE_POLL_MS = 30_000;
// Expiry notices fall due at midnight UTC, but one written for a day already begun (a credential
// issued already expired, an expiry date moved to tomorrow) is due at once: looked for every few seconds.
const EXPIRY_NOTICE_POLL_MS = 5_000;
const IMPORT_POLL_MS = 1000;
// An expired key already behaves as new (lib/idempotency/service.ts); deleting its row only frees space.
const IDEMPOTENCY_CLEANUP_MS = 10 * 60_000;
/**
 * Emailed sign-in and password reset links live 15 minutes; expired ones are removed within a minute,
 * with expired wallet sessions and spent OpenID4VCI offers and nonces.
 */
const EXPIRED_LINKS_CLEANUP_MS = 60_000;
const IDEMPOTENCY_CLEANUP_BATCH = 500;
// Verified domains are due once a day each (lib/domains); looking every few minutes spreads them out.
const DOMAIN_RECHECK_POLL_MS = 5 * 60_000;
const DOMAIN_RECHECK_BATCH = 20;

type Loops = { stop: () => void };
const running = () => processSlot<Loops>("background.loops");

function loop(name: string, everyMs: number, work: () => Promise<unknown>): { stop: () => void; nudge: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    clearTimeout(timer);
    try {
      do {
        again = false;
        await work();
      } while (again && !stopped);
    } catch (error) {
      log.error(`${name}_failed`, errorSummary(error));
    } finally {
      running = false;
      if (!stopped) timer = setTimeout(() => void run(), everyMs);
    }
  };
  timer = setTimeout(() => void run(), 0);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    nudge: () => void run(),
  };
}

export function startBackgroundWork(): Loops {
  const started = running();
  if (started.current) return started.current;
  let delivery: MailDelivery | undefined;
  const mail = loop("mail_worker", MAIL_POLL_MS, async () => {
    // Only claims: deliveries go on in the background, each freeing its slot when recorded and nudging
    // this loop to fill it, so a relay that hangs holds one slot and the next email still leaves.
    delivery ??= mailDelivery(mailTransport(), () => mail.nudge());
    while ((await delivery.claim()) > 0) {
      /* more slots free and more due */
    }
  });
  let webhooks: WebhookDelivery | undefined;
  const webhook = loop("webhook_worker", WEBHOOK_POLL_MS, async () => {
    // As for mail: only claims; each delivery frees its slot when recorded and nudges this loop.
    webhooks ??= webhookDelivery(() => webhook.nudge());
    while ((await webhooks.claim()) > 0) {
      /* more slots free and more due */
    }
  });
  const schedule = loop("scheduler", SCHEDULE_POLL_MS, async () => {
    if ((await promoteDueScheduledCredentials()) > 0) mail.nudge();
  });
  const expiryNotices = loop("expiry_notices", EXPIRY_NOTICE_POLL_MS, async () => {
    while ((await processDueExpiryNotices()) > 0) {
      /* more due */
    }
  });
  const imports = loop("import_runner", IMPORT_POLL_MS, async () => {
    // Each pass works on one job for a bounded number of rows; go on while there is work.
    while ((await runImportJobs()) > 0) {
      /* next pass */
    }
  });
  const idempotency = loop("idempotency_cleanup", IDEMPOTENCY_CLEANUP_MS, async () => {
    // Bounded batches, so one pass never holds a long write on a backlog of a busy day.
    while ((await deleteExpiredIdempotencyRecords(IDEMPOTENCY_CLEANUP_BATCH)) === IDEMPOTENCY_CLEANUP_BATCH) {
      /* next batch */
    }
  });
  const domains = loop("domain_recheck", DOMAIN_RECHECK_POLL_MS, async () => {
    while ((await recheckDueDomainClaims(DOMAIN_RECHECK_BATCH)) === DOMAIN_RECHECK_BATCH) {
      /* next batch */
    }
  });
  const expiredLinks = loop("expired_links_cleanup", EXPIRED_LINKS_CLEANUP_MS, async () => {
    while (
      (await retireExpiredSignInLinks()) +
        (await retireExpiredPasswordResets()) +
        (await retireExpiredWalletSignInLinks()) +
        (await retireExpiredWalletSessions()) +
        (await retireExpiredOid4vciRows()) >
      0
    ) {
      /* next batch */
    }
  });
  const webhookRetention = loop("webhook_retention", IDEMPOTENCY_CLEANUP_MS, async () => {
    while ((await deleteOldWebhookEvents(IDEMPOTENCY_CLEANUP_BATCH)) === IDEMPOTENCY_CLEANUP_BATCH) {
      /* next batch */
    }
  });
  setMailNudge(mail.nudge);
  setImportNudge(imports.nudge);
  setWebhookNudge(webhook.nudge);
  started.current = {
    stop: () => {
      setMailNudge(undefined);
      setImportNudge(undefined);
      setWebhookNudge(undefined);
      mail.stop();
      webhook.stop();
      schedule.stop();
      expiryNotices.stop();
      imports.stop();
      idempotency.stop();
      domains.stop();
      webhookRetention.stop();
      expiredLinks.stop();
    },
  };
  return started.current;
}
