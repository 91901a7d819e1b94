// The layers of the code, bottom first. A module may import modules of its own layer or of a lower
// one, never of a higher one; every folder of lib/ (and every file directly in lib/) belongs to
// exactly one layer, and a folder that is in none fails the boundary check, so a new folder has to
// be placed deliberately. Inside a layer folders may use one another, but never around a loop:
// scripts/boundaries/check.ts refuses any cycle between folders.
// Members: "lib/name/" is a folder, "lib/name.ts" a file, "app/" the Next.js app.

/** @type {{ name: string, why: string, members: string[] }[]} */
module.exports = [
  {
    name: "foundation",
    why: "Configuration, the app secret and the logger: read by every layer, they import nothing of ours but one another.",
    members: ["lib/config.ts", "lib/app-secret.ts", "lib/log.ts", "lib/process-log.ts"],
  },
  {
    name: "core",
    why: "What every layer shares and nothing HTTP: errors and their status table, validation, pagination, dates, process singletons.",
    members: ["lib/core/"],
  },
  {
    name: "infrastructure",
    why: "Mechanisms without business rules: the database, outbound requests, file storage, the pure renderer and the previews built on it, rate limits, outbox leasing, attribute values, messages, dashboard form plumbing, the bounded cache of rendered answers.",
    members: [
      "lib/db/",
      "lib/generated/",
      "lib/net/",
      "lib/storage/",
      "lib/render/",
      "lib/previews/",
      "lib/rate-limit/",
      "lib/outbox/",
      "lib/attribute-values/",
      "lib/i18n/",
      "lib/dashboard/",
      "lib/public-cache/",
    ],
  },
  {
    name: "services",
    why: "The domain services, where every rule lives once; the faces above call them and they never call a face.",
    members: [
      "lib/accounts/",
      "lib/attributes/",
      "lib/corrections/",
      "lib/credentials/",
      "lib/designs/",
      "lib/domains/",
      "lib/expiry/",
      "lib/groups/",
      "lib/health/",
      "lib/idempotency/",
      "lib/imports/",
      "lib/interactions/",
      "lib/oid4vci/",
      "lib/issuers/",
      "lib/mail/",
      "lib/organizations/",
      "lib/recipients/",
      "lib/search/",
      "lib/verifiable/",
      "lib/verification/",
      "lib/wallet/",
      "lib/wallet-profiles/",
      "lib/wallet-download/",
      "lib/webhooks/",
      "lib/public-faces/",
    ],
  },
  {
    name: "edges",
    why: "HTTP and sign-in: the /v1 wrapper and error envelope, the server's own answers, dashboard sign-in. They call services, services never call them.",
    members: ["lib/api/", "lib/http-server/", "lib/auth/"],
  },
  {
    name: "entry points",
    why: "What starts work: pages, actions and routes, and the background worker. Nothing imports them.",
    members: ["app/", "lib/background.ts"],
  },
];
