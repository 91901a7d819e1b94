// A Verifiable Presentation: its data model, its holder's proof when it has one (checked by
// @digitalbazaar/vc with the same suites and bundled contexts, the holder's DID resolved like an
// issuer's), then every credential inside it through the credential checks. The verdict is the worst
// of all: "valid" only when the presentation and every credential in it are.
import * as vc from "@digitalbazaar/vc";
import { createDocumentLoader } from "../verifiable/document-loader";
import { checkPresentationDataModel } from "../verifiable/data-model";
import { contextProblem } from "./format-check";
import { resolveIssuerDid } from "./did-resolution";
import { EMPTY_FACTS, type Check, type CheckId, type Verdict, type VerificationReport } from "./report";
import { reasonOfFailure } from "./signature-check";
import { supportedProof, verificationSuites } from "./suites";

/** Credentials read from one presentation, at most. */
const MAX_PRESENTED_CREDENTIALS = 20;

type CredentialVerifier = (parsed: Record<string, unknown>, bytes: number, now: Date) => Promise<VerificationReport>;
type Options = { challenge?: string; domain?: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** Worst first: the verdict of a presentation is the first of these that any part has. */
const SEVERITY: Verdict[] = ["revoked", "suspended", "invalid", "unverifiable", "expired", "not yet valid", "valid"];

function build(verdict: Verdict, headline: string, done: Partial<Record<CheckId, Check>>, now: Date, credentials: VerificationReport[]) {
  const checks = (["format", "signature", "issuer", "status", "validity"] as const).map(
    (id): Check => done[id] ?? { id, outcome: "skipped", summary: "Checked for each credential of the presentation, below.", detail: null },
  );
  const facts = credentials.length === 1 ? credentials[0]!.facts : EMPTY_FACTS;
  return { verdict, headline, checks, facts, checkedAt: now.toISOString(), credentials } satisfies VerificationReport;
}

/** The holder's proof as a check; `unchecked`: it could not be checked at all (neither intact nor forged). */
async function holderProof(presentation: Record<string, unknown>, options: Options): Promise<Check & { unchecked?: true }> {
  const proofs = asArray(presentation.proof);
  // @digitalbazaar/vc calls a proof set verified when any one proof verifies (see proof-set.ts): a
  // forged proof beside the holder's would pass. Holders sign a presentation once; more is not read.
  if (proofs.length > 1) {
    return {
      id: "signature",
      outcome: "failed",
      summary: "The presentation carries several proofs; this verifier checks a presentation signed once by its holder.",
      detail: `${proofs.length} proofs`,
      unchecked: true,
    };
  }
  const proof = proofs.find(isObject);
  if (!proof) {
    return {
      id: "signature",
      outcome: "warning",
      summary: "The presentation is not signed by its holder: only the credentials' own signatures are checked.",
      detail: "the presentation has no proof",
    };
  }
  if (!supportedProof(presentation)) {
    return {
      id: "signature",
      outcome: "failed",
      summary: "The presentation is signed in a way this verifier does not check.",
      detail: null,
    };
  }
  const documentLoader = createDocumentLoader({
    resolveDid: async (did) => {
      const resolved = await resolveIssuerDid(did);
      return resolved.ok ? resolved.document : null;
    },
  });
  // The challenge and domain the holder signed: the caller's, when it asked for them, else as stated.
  const challenge = options.challenge ?? (typeof proof.challenge === "string" ? proof.challenge : undefined);
  const domain = options.domain ?? (typeof proof.domain === "string" ? proof.domain : undefined);
  const result = await vc.verify({
    presentation: structuredClone(presentation),
    suite: verificationSuites(),
    documentLoader,
    ...(challenge ? { challenge } : {}),
    ...(domain ? { domain } : {}),
    // The credentials are checked one by one afterwards, with their own report; here only the holder's proof counts.
    checkStatus: async () => ({ verified: true }),
  });
  const own = result.presentationResult;
  if (own?.verified) {
    return { id: "signature", outcome: "passed", summary: "The holder's signature on the presentation matches.", detail: null };
  }
  return {
    id: "signature",
    outcome: "failed",
    summary: "The presentation was changed after its holder signed it, or the signature is forged.",
    detail: reasonOfFailure(own ?? result),
  };
}

export async function verifyPresentationDocument(
  presentation: Record<string, unknown>,
  bytes: number,
  now: Date,
  options: Options,
  verifyCredential: CredentialVerifier,
): Promise<VerificationReport> {
  const fail = (summary: string, detail: string | null) =>
    build("invalid", `Not valid: ${summary}`, { format: { id: "format", outcome: "failed", summary, detail } }, now, []);
  const contexts = contextProblem(presentation);
  if (contexts) return fail(contexts.check.summary, contexts.check.detail);
  const model = checkPresentationDataModel(presentation);
  if (!model.ok)
    return fail(
      `The presentation breaks the Verifiable Credentials data model: ${model.reason.replace(/\.+$/, "")}.`,
      `data model error: ${model.reason}`,
    );
  const presented = asArray(presentation.verifiableCredential).filter(isObject);
  if (presented.length > MAX_PRESENTED_CREDENTIALS)
    return fail("The presentation holds more credentials than this verifier reads.", `${presented.length} credentials`);

  const format: Check = {
    id: "format",
    outcome: "passed",
    summary: `The document is a Verifiable Presentation holding ${presented.length} credential${presented.length === 1 ? "" : "s"}.`,
    detail: `${bytes} bytes`,
  };
  const signature = await holderProof(presentation, options);
  const credentials: VerificationReport[] = [];
  for (const credential of presented) credentials.push(await verifyCredential(credential, bytes, now));

  const own: Verdict = signature.unchecked ? "unverifiable" : signature.outcome === "failed" ? "invalid" : "valid";
  const verdict = SEVERITY.find((v) => v === own || credentials.some((c) => c.verdict === v)) ?? "valid";
  // The holder's failed proof leads the headline, unless it is one that could not be checked and a
  // credential inside has a worse verdict.
  const holderLeads = signature.outcome === "failed" && (!signature.unchecked || verdict === "unverifiable");
  const headline = holderLeads
    ? `${signature.unchecked ? "Could not be verified" : "Not valid"}: ${signature.summary}`
    : verdict === "valid"
      ? `Valid: the presentation and ${presented.length === 1 ? "its credential" : `its ${presented.length} credentials`} passed every check.`
      : `${credentials.find((c) => c.verdict === verdict)?.headline ?? verdict} (a credential of the presentation)`;
  const { unchecked: _unchecked, ...signatureCheck } = signature;
  return build(verdict, headline, { format, signature: signatureCheck }, now, credentials);
}
