// The import boundaries of docs/architecture.md ("may import"), checked in CI by `npm run lint:boundaries`.
// A rule names who may not import what; each comment says why the boundary exists.
const DOMAINS = "accounts|i18n|attributes|domains|health|net|outbox|webhooks|verifiable|verification|credentials|designs|groups|idempotency|imports|interactions|issuers|mail|organizations|previews|recipients|search|storage|wallet|dashboard|render|db|core";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domains-not-http",
      comment: "Domain services, the renderer and the primitives know nothing of HTTP: lib/api is the layer above them (its errors, validation and pagination live in lib/core).",
      severity: "error",
      from: { path: `^lib/(${DOMAINS})/` },
      to: { path: "^lib/api/" },
    },
    {
      name: "app-not-database",
      comment: "Pages, actions and routes call domain services; only services talk to the database. Tests may set up a scratch database.",
      severity: "error",
      from: { path: "^app/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^lib/(db|generated)/" },
    },
    {
      name: "render-is-pure",
      comment: "The renderer is pure (document and values in, bytes out): it imports only lib/core. Tests may use domain fixtures.",
      severity: "error",
      from: { path: "^lib/render/", pathNot: "\\.test\\.ts$" },
      to: { path: "^lib/", pathNot: "^lib/(render|core)/" },
    },
    {
      name: "core-is-the-bottom",
      comment: "lib/core is what every layer shares: it may read configuration, the app secret and the logger, nothing else of ours.",
      severity: "error",
      from: { path: "^lib/core/" },
      to: { path: "^lib/", pathNot: "^lib/(core/|config\\.ts$|app-secret\\.ts$|log\\.ts$)" },
    },
    {
      name: "no-import-cycles",
      comment: "A cycle makes load order matter and modules impossible to understand alone.",
      severity: "error",
      from: { path: "^(lib|app)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|lib/generated|\\.next)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
