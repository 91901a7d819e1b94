// The import boundaries of docs/architecture.md ("may import"), checked in CI by `npm run lint:boundaries`
// (scripts/boundaries/check.ts runs dependency-cruiser with this file, then refuses loops between folders).
// A rule names who may not import what; each comment says why the boundary exists.
const LAYERS = require("./scripts/boundaries/layers.cjs");

/** Tests, and the helpers only tests use (test/support), may reach across layers to set up what they test. */
const TEST_CODE = "\\.test\\.tsx?$|^test/";

const memberPattern = (member) => `^${member.replace(/[.]/g, "\\.")}${member.endsWith("/") ? "" : "$"}`;
const anyOf = (members) => members.map(memberPattern).join("|");

/** One rule per layer: nothing in it imports a higher layer. */
const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name.replace(/ /g, "-")}`,
  comment: `${layer.why} Lower layers never import higher ones.`,
  severity: "error",
  from: { path: anyOf(layer.members), pathNot: TEST_CODE },
  to: { path: anyOf(LAYERS.slice(index + 1).flatMap((higher) => higher.members)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "production-not-test-support",
      comment:
        "Test helpers (scratch databases, fake servers, shared test contracts) live in test/support, outside the production folders; production code never imports them.",
      severity: "error",
      from: { path: "^(lib|app)/|^server\\.ts$", pathNot: TEST_CODE },
      to: { path: "^test/" },
    },
    {
      name: "no-test-framework-in-production",
      comment: "A module that imports the test runner is a test helper: it belongs in test/support, not beside production code.",
      severity: "error",
      from: { path: "^(lib|app)/|^server\\.ts$", pathNot: TEST_CODE },
      to: { path: "node_modules/(vitest|@vitest|@playwright|playwright)/" },
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
    exclude: { path: "^(lib/generated|\\.next)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
