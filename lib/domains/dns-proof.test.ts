// The DNS TXT proof against a local DNS server (DNS_SERVERS), and how it joins the file check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type DnsTestServer } from "../../test/support/domains/dns-server";
import { startProofServer, type ProofServer } from "../../test/support/domains/proof-server";
import { proofLine } from "./proof";

let dnsServer: DnsTestServer;
let site: ProofServer;
let dnsProof: typeof import("./dns-proof");
let check: typeof import("./check");
const token = "00112233445566778899aabbccddeeff";

beforeAll(async () => {
  dnsServer = await startDnsServer();
  process.env.WEBHOOK_ALLOW_PRIVATE = "1";
  process.env.DNS_SERVERS = dnsServer.address;
  dnsProof = await import("./dns-proof");
  check = await import("./check");
  site = await startProofServer();
});
afterAll(() => Promise.all([dnsServer.close(), site.close()]));

describe("readDnsProof", () => {
  it("asks for _credential-issuer.<host> and finds the line among other records", async () => {
    dnsServer.txt.set("_credential-issuer.example.edu", [["v=spf1 -all"], [proofLine(token)]]);
    expect(await dnsProof.readDnsProof("example.edu", token)).toEqual({ reading: "found" });
    expect(dnsServer.questions.at(-1)).toBe("_credential-issuer.example.edu");
  });

  it("joins a long record's strings", async () => {
    const line = proofLine(token);
    dnsServer.txt.set("_credential-issuer.split.example.edu", [[line.slice(0, 20), line.slice(20)]]);
    expect(await dnsProof.readDnsProof("split.example.edu", token)).toEqual({ reading: "found" });
  });

  it("tells another token and no record apart", async () => {
    dnsServer.txt.set("_credential-issuer.other.example.edu", [[proofLine("ffff")]]);
    expect(await dnsProof.readDnsProof("other.example.edu", token)).toEqual({ reading: "other_token" });
    expect(await dnsProof.readDnsProof("none.example.edu", token)).toEqual({ reading: "absent" });
  });

  it("gives up on a resolver that does not answer", async () => {
    dnsServer.silent = true;
    try {
      const started = Date.now();
      expect(await dnsProof.readDnsProof("example.edu", token)).toEqual({ reading: "unanswered", reason: "the DNS lookup timed out" });
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      dnsServer.silent = false;
    }
  });
});

describe("checkDomainOwnership: the file or the record", () => {
  it("is verified by the record when the file is missing", async () => {
    site.serve(404, "");
    dnsServer.txt.set("_credential-issuer.localhost", [[proofLine(token)]]);
    expect(await check.checkDomainOwnership(site.domain, token)).toMatchObject({
      outcome: "verified",
      message: "The DNS TXT record _credential-issuer.localhost contains your verification line.",
    });
    dnsServer.txt.delete("_credential-issuer.localhost");
  });

  it("is verified by the file without a record", async () => {
    site.serve(200, proofLine(token));
    expect(await check.checkDomainOwnership(site.domain, token)).toMatchObject({
      outcome: "verified",
      message: expect.stringContaining("contains your verification line"),
    });
  });

  it("reports the file's problem, and what DNS had, when neither proves it", async () => {
    site.serve(404, "");
    const none = await check.checkDomainOwnership(site.domain, token);
    expect(none.outcome).toBe("http_status");
    expect(none.message).toMatch(
      /404 Not Found: the file is not there\. No DNS TXT record _credential-issuer\.localhost carries it either\.$/,
    );
    dnsServer.txt.set("_credential-issuer.localhost", [[proofLine("ffff")]]);
    expect((await check.checkDomainOwnership(site.domain, token)).message).toContain("has a verification line, but with another token");
    dnsServer.txt.delete("_credential-issuer.localhost");
  });
});
