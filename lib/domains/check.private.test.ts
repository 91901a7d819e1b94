// The check against a local website, under the WEBHOOK_ALLOW_PRIVATE test switch (which is what lets a
// loopback name be checked, over http): each way a site can fail the check, and what it is told.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProofServer, type ProofServer } from "../../test/support/domains/proof-server";
import { proofLine } from "./proof";

let site: ProofServer;
let check: typeof import("./check");
const token = "00112233445566778899aabbccddeeff";

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "1";
  check = await import("./check");
  site = await startProofServer();
});
afterAll(() => site.close());

describe("checkDomainProof with WEBHOOK_ALLOW_PRIVATE=1", () => {
  it("reads the file over http from a loopback name, and finds the line", async () => {
    site.serve(200, `# issuers\n${proofLine(token)}\n`);
    const result = await check.checkDomainProof(site.domain, token);
    expect(result).toMatchObject({ outcome: "verified", url: `http://${site.domain}/.well-known/credential-issuer.txt` });
    expect(site.hits.at(-1)).toBe("/.well-known/credential-issuer.txt");
  });

  it("says what is wrong with the content", async () => {
    site.serve(200, "hello");
    expect(await check.checkDomainProof(site.domain, token)).toMatchObject({
      outcome: "wrong_content",
      message: expect.stringContaining(`does not contain the line ${proofLine(token)}`),
    });
    site.serve(200, proofLine("ffff"));
    expect(await check.checkDomainProof(site.domain, token)).toMatchObject({
      outcome: "wrong_content",
      message: expect.stringContaining("another token"),
    });
  });

  it("gives the HTTP status of a missing file or an error", async () => {
    site.serve(404, proofLine(token));
    expect(await check.checkDomainProof(site.domain, token)).toMatchObject({
      outcome: "http_status",
      message: expect.stringContaining("404 Not Found"),
    });
    site.serve(500, proofLine(token));
    expect(await check.checkDomainProof(site.domain, token)).toMatchObject({
      outcome: "http_status",
      message: expect.stringContaining("HTTP 500"),
    });
  });

  it("does not follow a redirect, even to a page that has the token", async () => {
    site.answer((req, res) => {
      if (req.url === "/elsewhere") return res.writeHead(200).end(proofLine(token));
      res.writeHead(301, { location: "/elsewhere" }).end();
    });
    const before = site.hits.length;
    const result = await check.checkDomainProof(site.domain, token);
    expect(result).toMatchObject({ outcome: "http_status", message: expect.stringContaining("301, a redirect to /elsewhere") });
    expect(site.hits.slice(before)).toEqual(["/.well-known/credential-issuer.txt"]);
  });

  it("stops reading a huge answer", async () => {
    site.answer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 640 && res.write(chunk)) sent++; // 10 MiB if nobody stopped it
        if (sent < 640) res.once("drain", pump);
        else res.end(proofLine(token));
      };
      pump();
    });
    expect(await check.checkDomainProof(site.domain, token)).toMatchObject({
      outcome: "too_large",
      message: expect.stringContaining("larger than 64 KiB"),
    });
  });

  it("gives up on a site that does not answer in time", async () => {
    site.answer(() => {
      /* never answers */
    });
    const started = Date.now();
    expect(await check.checkDomainProof(site.domain, token, 300)).toMatchObject({
      outcome: "unreachable",
      message: expect.stringContaining("no complete answer"),
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("says so when nothing listens", async () => {
    const gone = await startProofServer();
    await gone.close();
    expect(await check.checkDomainProof(gone.domain, token)).toMatchObject({
      outcome: "unreachable",
      message: expect.stringContaining("refused the connection"),
    });
  });
});
