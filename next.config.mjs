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
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // CSV imports upload files of up to 5 MB through a server action (lib/imports/csv.ts checks the
  // exact limit and says so); the default 1 MB would refuse them before that check could speak.
  experimental: { serverActions: { bodySizeLimit: "6mb" } },
};
export default withNextIntl(nextConfig);
