import createNextIntlPlugin from "next-intl/plugin";

// next-intl: the wallet page's messages and locale (app/i18n/request.ts; catalogs in lib/i18n/messages).
const withNextIntl = createNextIntlPlugin("./app/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native modules and the Prisma driver adapters must stay outside the bundle (TOOLCHAIN.md).
  serverExternalPackages: [
    "@resvg/resvg-js",
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "nodemailer",
    "ioredis",
    "sharp",
    // HarfBuzz: an ES module with top-level await that reads its .wasm beside itself.
    "harfbuzzjs",
  ],
  // Test helpers and fixtures are never part of a deployment, even if a traced import pointed there
  // by mistake (the boundary check forbids production code importing them).
  outputFileTracingExcludes: { "*": ["test/**"] },
  // `npm test` type-checks everything (tsc, e2e included) beside the build and counts it as a test; it
  // sets this so that the build does not check the same types a second time on the same cores.
  typescript: { ignoreBuildErrors: process.env.CIS_BUILD_SKIP_TYPECHECK === "1" },
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  experimental: {
    // CSV imports upload files of up to 5 MB through a server action (lib/imports/csv.ts checks the
    // exact limit and says so); the default 1 MB would refuse them before that check could speak.
    serverActions: { bodySizeLimit: "6mb" },
    // Next loads every page's module when a production server starts, so that the first visits are
    // quick. A process started with CIS_BACKGROUND=only serves no pages: there it would only hold the
    // event loop for its first seconds (about 2 s of CPU on a busy machine), and the webhook and mail
    // workers with it (bench:webhooks' delay chart, docs/benchmarks.md). CIS_PRELOAD_PAGES=off turns
    // it off elsewhere too (docs/operating.md): each page's code then loads on its first visit. Both
    // variables are read here as Next loads this file; lib/config.ts checks their values at start.
    preloadEntriesOnStart: process.env.CIS_BACKGROUND !== "only" && process.env.CIS_PRELOAD_PAGES !== "off",
  },
  // OpenID4VCI metadata lives under /.well-known/, and Next does not route folders whose names start
  // with a dot: the well-known addresses (inserted before the issuer's path, and appended after it)
  // are rewritten to the organization's routes (app/organizations/[id]/oid4vci).
  async rewrites() {
    return {
      beforeFiles: [
        { source: "/.well-known/openid-credential-issuer/organizations/:id", destination: "/organizations/:id/oid4vci/metadata" },
        { source: "/organizations/:id/.well-known/openid-credential-issuer", destination: "/organizations/:id/oid4vci/metadata" },
        {
          source: "/.well-known/oauth-authorization-server/organizations/:id",
          destination: "/organizations/:id/oid4vci/authorization-server",
        },
        {
          source: "/organizations/:id/.well-known/oauth-authorization-server",
          destination: "/organizations/:id/oid4vci/authorization-server",
        },
        // Any other well-known name under an issuer (wallet apps probe for an OpenID configuration first):
        // a 404 in JSON, not the HTML not-found page, which some clients fail to parse.
        { source: "/organizations/:id/.well-known/:rest*", destination: "/organizations/:id/oid4vci/well-known/:rest*" },
      ],
    };
  },
};
export default withNextIntl(nextConfig);
