// npm run bench:trust — the trust figures of issue 16: signing one Open Badges 3.0 credential
// (eddsa-rdfc-2022, bundled contexts) and verifying one, in process, as p50/p95 over many runs; the
// full verifier report (format, DID, signature, status list, dates) on a credential of this instance,
// on a did:key credential (another issuer, no network) and on a PDF carrying our credential as
// credential.json; and, on the built app (skipped with BENCH_HTTP=0), credential.json answers per second (cached signed documents) next to the
// framework's ceiling (/livez, as bench:api measures it). bench:issue is its own command.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runLoad } from "./bench/load";
import { issueDemoCredential, startBenchServer } from "./bench/app-server";

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50: at(50), p95: at(95) };
}

async function timed(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 10; i++) await fn(-1 - i); // warm up (JIT, context caches)
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return percentiles(samples);
}

async function inProcess() {
  const dir = mkdtempSync(path.join(tmpdir(), "cis-bench-trust-"));
  process.env.DATABASE_URL = `file:${dir}/db.sqlite`;
  process.env.DATA_DIR = dir;
  process.env.LOG_LEVEL = "warn";
  process.env.PUBLIC_URL ??= "http://localhost:3999";
  try {
    const { applyMigrations } = await import("@/lib/db/migrate");
    await applyMigrations(process.env.DATABASE_URL);
    const { createOrganization } = await import("@/lib/organizations/service");
    const { createDesign } = await import("@/lib/designs/service");
    const { createGroup } = await import("@/lib/groups/service");
    const credentials = await import("@/lib/credentials/service");
    const { issuerSigner } = await import("@/lib/issuers/service");
    const { ownDocumentLoader, publicOpenBadgeCredential } = await import("@/lib/verifiable/service");
    const { signDocument } = await import("@/lib/verifiable/signing");
    const { resolveIssuerDid } = await import("@/lib/verification/did-resolution");
    const { verifyProof } = await import("@/lib/verification/signature-check");
    const { verifyCredentialDocument } = await import("@/lib/verification/verify-document");
    const { db } = await import("@/lib/db");

    const org = await createOrganization({ slug: "bench-trust", name: "Bench Academy", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
    const credential = await credentials.createIssueCredential(org, {
      groupId: group.id,
      recipient: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    const json = (await publicOpenBadgeCredential(credential.publicId))!.json;
    const signed = JSON.parse(json) as Record<string, unknown> & { proof: unknown };
    const { proof: _proof, ...unsigned } = signed;
    const signer = await issuerSigner(org);
    const loader = ownDocumentLoader();
    const did = await resolveIssuerDid((signed.issuer as { id: string }).id);
    if (!did.ok) throw new Error("the bench issuer's DID did not resolve");

    // Each run signs a different document (another recipient name), as issuing does.
    const signedCopies: Record<string, unknown>[] = [];
    const sign = await timed(RUNS, async (i) => {
      const copy = await signDocument(
        { ...unsigned, credentialSubject: { ...(unsigned.credentialSubject as object), name: `Person ${i}` } },
        signer,
        loader,
      );
      if (i >= 0) signedCopies.push(copy);
    });
    // Verified proofs are remembered (lib/verification/proof-memo.ts): the signature and the report are
    // measured on documents seen for the first time, and the report again on one seen before, as when
    // many guests check the same credential.
    const verify = await timed(RUNS, async (i) => {
      const outcome = await verifyProof(i >= 0 ? signedCopies[i]! : signed, did.document);
      if (!outcome.verified) throw new Error(`did not verify: ${outcome.reason}`);
    });
    const firstSight: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const issued = await credentials.createIssueCredential(org, {
        groupId: group.id,
        recipient: { name: `Person ${i}`, email: `person${i}@example.com` },
      });
      firstSight.push((await publicOpenBadgeCredential(issued.publicId))!.json);
    }
    const report = await timed(RUNS, async (i) => {
      const r = await verifyCredentialDocument({ kind: "json", json: i >= 0 ? firstSight[i]! : json });
      if (r.verdict !== "valid") throw new Error(`verdict ${r.verdict}: ${r.headline}`);
    });
    const repeatReport = await timed(RUNS, async () => {
      const r = await verifyCredentialDocument({ kind: "json", json });
      if (r.verdict !== "valid") throw new Error(`verdict ${r.verdict}: ${r.headline}`);
    });

    // A credential of another issuer: a did:key signing VC 2.0 with eddsa-rdfc-2022, no status.
    const Ed25519Multikey = await import("@digitalbazaar/ed25519-multikey");
    const { createDocumentLoader } = await import("@/lib/verifiable/document-loader");
    const key = await Ed25519Multikey.generate();
    const didKey = `did:key:${key.publicKeyMultibase}`;
    Object.assign(key, { id: `${didKey}#${key.publicKeyMultibase}`, controller: didKey });
    const didKeyLoader = createDocumentLoader({
      resolveDid: async (d) => {
        const resolved = await resolveIssuerDid(d);
        return resolved.ok ? resolved.document : null;
      },
    });
    const didKeyJson = JSON.stringify(
      await signDocument(
        {
          "@context": ["https://www.w3.org/ns/credentials/v2"],
          type: ["VerifiableCredential"],
          issuer: didKey,
          validFrom: "2024-01-01T00:00:00Z",
          credentialSubject: { id: "did:example:holder", name: "Ada Lovelace" },
        },
        key.signer() as never,
        didKeyLoader,
      ),
    );
    const didKeyReport = await timed(RUNS, async () => {
      const r = await verifyCredentialDocument({ kind: "json", json: didKeyJson });
      if (r.verdict !== "valid") throw new Error(`did:key verdict ${r.verdict}: ${r.headline}`);
    });

    // Our credential inside a PDF (a one-page document, as pdf-lib's attach() writes it).
    const { PDFDocument } = await import("pdf-lib");
    const pdf = await PDFDocument.create();
    pdf.addPage([842, 595]);
    await pdf.attach(Buffer.from(json), "credential.json", { mimeType: "application/json" });
    const pdfBytes = await pdf.save();
    const pdfReport = await timed(RUNS, async () => {
      const r = await verifyCredentialDocument({ kind: "pdf", bytes: pdfBytes });
      if (r.verdict !== "valid") throw new Error(`PDF verdict ${r.verdict}: ${r.headline}`);
    });
    await db().$disconnect();
    return { sign, verify, report, repeatReport, didKeyReport, pdfReport };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function credentialJsonThroughput() {
  const server = await startBenchServer();
  try {
    const credential = await issueDemoCredential(server);
    const documentUrl = `${server.url}/credentials/${credential.publicId}/credential.json`;
    const first = await fetch(documentUrl); // signs and stores it: later answers are the cached document
    if (first.status !== 200) throw new Error(`credential.json answered ${first.status}`);
    const targets: [string, string][] = [
      ["GET /livez (ceiling)", `${server.url}/livez`],
      ["GET /credentials/{publicId}/credential.json", documentUrl],
    ];
    const results = [];
    for (const [name, url] of targets) {
      await runLoad({ url, connections: CONNECTIONS, seconds: 2 });
      results.push({ name, ...(await runLoad({ url, connections: CONNECTIONS, seconds: SECONDS })) });
    }
    return results;
  } finally {
    await server.stop();
  }
}

async function main() {
  const figures = await inProcess();
  const load = process.env.BENCH_HTTP === "0" ? [] : await credentialJsonThroughput();
  const ms = (v: number) => v.toFixed(1);
  console.log(`\nnode ${process.version}, ${RUNS} runs each, bundled contexts, SQLite\n`);
  console.log("| operation | p50 ms | p95 ms | goal |");
  console.log("|---|---:|---:|---|");
  console.log(`| sign one credential (eddsa-rdfc-2022) | ${ms(figures.sign.p50)} | ${ms(figures.sign.p95)} | p50 ≤ 15 ms |`);
  console.log(`| verify one signature, first sight | ${ms(figures.verify.p50)} | ${ms(figures.verify.p95)} | p50 ≤ 30 ms |`);
  console.log(
    `| full verification report, our credential, first sight (format, DID, signature, status list, dates) | ${ms(figures.report.p50)} | ${ms(figures.report.p95)} | p50 ≤ 10 ms |`,
  );
  console.log(
    `| full verification report, our credential seen before (signature remembered) | ${ms(figures.repeatReport.p50)} | ${ms(figures.repeatReport.p95)} | — |`,
  );
  console.log(
    `| full verification report, a did:key credential, seen before | ${ms(figures.didKeyReport.p50)} | ${ms(figures.didKeyReport.p95)} | — |`,
  );
  console.log(
    `| full verification report, our credential in a PDF (credential.json), seen before | ${ms(figures.pdfReport.p50)} | ${ms(figures.pdfReport.p95)} | — |`,
  );
  if (load.length === 0) return;
  const ceiling = load[0]!.rps;
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, built app\n`);
  console.log("| route | req/s | p50 ms | p99 ms | errors | ratio to ceiling |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of load)
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${(r.rps / ceiling).toFixed(2)} |`,
    );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
