// Builds the app when the build in .next is older than its sources (npm test runs it beside the unit
// tests, so that the end-to-end tests' global setup then finds the build fresh). One rule for both:
// servers.ts.
import { buildIfStale } from "./servers";

buildIfStale();
