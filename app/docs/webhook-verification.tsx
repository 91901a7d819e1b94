// The "verify a signature" example the Webhooks section of the reference shows (docs/api.md, Webhooks).
const EXAMPLE = `// npm install standardwebhooks
import express from "express";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.WEBHOOK_SECRET); // "whsec_..." from POST /v1/webhooks

const app = express();
// The signature covers the exact bytes: read the body raw, parse it only after verifying.
app.post("/hooks/credentials", express.raw({ type: "application/json" }), (req, res) => {
  let event;
  try {
    // Checks webhook-signature (any of its space-separated signatures) and that
    // webhook-timestamp is within 5 minutes; throws otherwise.
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.status(400).end();
  }
  // Delivery is at least once: webhook-id (= event.id) is the same on every retry.
  console.log(event.id, event.type, event.data);
  res.status(204).end(); // any 2xx within 10 s; anything else is retried
});
app.listen(3000);`;

export function WebhookVerification() {
  return (
    <article id="verify-webhook-signature">
      <h3>Verify a signature in Node</h3>
      <p>
        Deliveries are signed as Standard Webhooks signs: <code>webhook-signature</code> is <code>v1,</code> followed by the base64
        HMAC-SHA256 of <code>{"<webhook-id>.<webhook-timestamp>.<body>"}</code>, keyed with the secret&apos;s base64-decoded bytes (two
        signatures, space-separated, for 24 hours after a rotation). The <code>standardwebhooks</code> package checks all of it:
      </p>
      <pre>{EXAMPLE}</pre>
    </article>
  );
}
