// Writes the localConfig.cjs a W3C test suite reads (through w3c/vc-test-suite-implementations) to
// find the implementations to test: this instance as issuer, credential verifier and presentation
// verifier, with every tag the three suites filter on.
//
//   node scripts/w3c-suites/local-config.mjs <suite-dir> <base-url> <issuer-did> <api-token>
//
// The token goes into the issuer's request headers (the suites send an endpoint's `headers` with each
// request); the file lives in the suite's out-of-repository copy only.
import { writeFileSync } from "node:fs";
import path from "node:path";

const [suiteDir, baseUrl, issuerDid, apiToken] = process.argv.slice(2);
if (!suiteDir || !baseUrl || !issuerDid || !apiToken) {
  console.error("Usage: node scripts/w3c-suites/local-config.mjs <suite-dir> <base-url> <issuer-did> <api-token>");
  process.exit(2);
}

/** vc2.0: data model suite; eddsa-rdfc-2022: EdDSA suite; BitstringStatusList + Revocation: status suite. */
const TAGS = ["vc2.0", "eddsa-rdfc-2022", "BitstringStatusList", "Revocation"];

const localConfig = {
  settings: { enableInteropTests: false, testAllImplementations: false },
  implementations: [
    {
      name: "Credentials (local)",
      implementation: "Credentials VC API",
      issuers: [
        {
          id: issuerDid,
          endpoint: `${baseUrl}/vc-api/credentials/issue`,
          headers: { Authorization: `Bearer ${apiToken}` },
          supports: { vc: ["2.0"] },
          tags: TAGS,
        },
      ],
      verifiers: [
        {
          id: `${baseUrl}/vc-api`,
          endpoint: `${baseUrl}/vc-api/credentials/verify`,
          supports: { vc: ["1.1", "2.0"] },
          tags: TAGS,
        },
      ],
      vpVerifiers: [
        {
          id: `${baseUrl}/vc-api`,
          endpoint: `${baseUrl}/vc-api/presentations/verify`,
          supports: { vc: ["1.1", "2.0"] },
          tags: TAGS,
        },
      ],
    },
  ],
};

const file = path.join(suiteDir, "localConfig.cjs");
writeFileSync(file, `// Written by scripts/w3c-suites/local-config.mjs\nmodule.exports = ${JSON.stringify(localConfig, null, 2)};\n`, {
  mode: 0o600,
});
console.log(`wrote ${file}`);
