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
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};
export default nextConfig;
