// Types for next.config.mjs (plain JavaScript, so that Next reads it without a compile step), for
// next.config.test.ts.
import type { NextConfig } from "next";

declare const config: NextConfig;
export default config;
