// Writes an adapted copy of the EdDSA suite's tests (`tests-vc2/` in the suite's own directory, never in
// this repository) that differs from `tests/` in exactly two places, each where the suite assumes
// something of every issuer that is not true of a VC 2.0 issuer signing as a did:web DID:
//
//   1. The shared issuer tests (05-di-rdfc-create.js) send a VC 1.1 credential; ours refuses VC 1.1 as
//      the contract says. The copy passes the same assertions a VC 2.0 credential instead.
//   2. The verification method tests resolve a proof's key with a did:key-only resolver; ours is a
//      did:web key. The copy's resolver also reads did:web DID documents (over HTTPS, as the did:web
//      method says) and answers the same shape as the did:key driver: the DID document, or the
//      verification method a DID URL names.
//
// Every assertion stays the suite's own. A substitution whose target is not found stops the script,
// so a newer suite that changed these files is not silently run half-adapted.
//
//   node scripts/w3c-suites/adapt-eddsa.mjs <vc-di-eddsa-test-suite directory>
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const [suiteDir] = process.argv.slice(2);
if (!suiteDir || !existsSync(path.join(suiteDir, "tests"))) {
  console.error("Usage: node scripts/w3c-suites/adapt-eddsa.mjs <vc-di-eddsa-test-suite directory>");
  process.exit(2);
}
const source = path.join(suiteDir, "tests");
const target = path.join(suiteDir, "tests-vc2");
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });

function substitute(file, from, to) {
  const full = path.join(target, file);
  const text = readFileSync(full, "utf8");
  if (!text.includes(from)) {
    console.error(`adapt-eddsa: ${file} no longer contains the text to adapt; read the suite's change first`);
    process.exit(1);
  }
  writeFileSync(full, text.replace(from, to));
}

// 1. The issuer tests get the suite's own minimal credential in its VC 2.0 form.
const vc2 = {
  "@context": ["https://www.w3.org/ns/credentials/v2"],
  id: "urn:uuid:86294362-4254-4f36-854f-3952fe42555d",
  type: ["VerifiableCredential"],
  issuer: "set by the suite to the issuer's id",
  credentialSubject: { id: "did:example:86294362-4254-4f36-854f-3952fe42555d" },
};
substitute(
  "05-di-rdfc-create.js",
  "  cryptosuiteName: 'eddsa-rdfc-2022'\n});",
  `  cryptosuiteName: 'eddsa-rdfc-2022',\n  credential: ${JSON.stringify(vc2)}\n});`,
);

// 2. did:web beside did:key.
substitute(
  "didResolver.js",
  "export async function didResolver({url}) {\n",
  `export async function didResolver({url}) {
  if(url.startsWith('did:web:')) {
    const [did, fragment] = url.split('#');
    const [host, ...segments] = did.slice('did:web:'.length).split(':').map(decodeURIComponent);
    const documentPath = segments.length ? segments.join('/') : '.well-known';
    const response = await fetch(\`https://\${host}/\${documentPath}/did.json\`);
    if(!response.ok) {
      throw new Error(\`did:web document of \${did}: HTTP \${response.status}\`);
    }
    const document = await response.json();
    if(fragment === undefined) {
      return document;
    }
    const method = (document.verificationMethod || []).find(m => m.id === url);
    if(!method) {
      throw new Error(\`\${url} is not a verification method of \${did}\`);
    }
    return {'@context': document['@context'], ...method};
  }
`,
);
console.log(`adapt-eddsa: wrote ${target}`);
