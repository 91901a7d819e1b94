// One check of a claimed domain: fetch its proof file through lib/net (public addresses only, no
// redirects, a deadline, a size cap) and say plainly what was found.
import { config } from "../config";
import { OutboundRequestError, outboundRequest } from "../net/outbound-request";
import { dnsRecordName, readDnsProof } from "./dns-proof";
import { domainHost, isLoopbackName } from "./domain-name";
import { PROOF_MAX_BYTES, PROOF_PATH, proofLine, readProof } from "./proof";

export type CheckOutcome =
  | "verified"
  /** No answer: the name does not resolve, the connection failed, TLS failed, or the deadline passed. */
  | "unreachable"
  /** The domain resolves to a private, link-local or loopback address: we never call those. */
  | "refused_address"
  /** An answer other than 200 (a redirect included: it is not followed). */
  | "http_status"
  /** A 200 without the token's line. */
  | "wrong_content"
  | "too_large"
  /** The file proves it, but another organization holds the domain verified (decided by the service). */
  | "taken";

export type CheckResult = { outcome: CheckOutcome; message: string; url: string };

const CHECK_TIMEOUT_MS = 10_000;

/**
 * Where the proof is read. Always https, except under the WEBHOOK_ALLOW_PRIVATE test switch for a
 * loopback name (`localhost`, `*.localhost`, optionally with a port): there a test's local http server
 * stands in for the website. Production never has the switch on, and without it a loopback name is
 * not even a valid claim (domain-name.ts).
 */
export function proofUrl(domain: string): string {
  const local = config().allowPrivateNetworks && isLoopbackName(domainHost(domain));
  return `${local ? "http" : "https"}://${domain}${PROOF_PATH}`;
}

function describeStatus(status: number, location: string | undefined): string {
  if (status >= 300 && status < 400) {
    const where = location ? ` to ${location.slice(0, 200)}` : "";
    return `answered ${status}, a redirect${where}. Redirects are not followed: serve the file at exactly this address.`;
  }
  if (status === 404) return "answered 404 Not Found: the file is not there.";
  return `answered HTTP ${status} instead of 200.`;
}

/** Reads the proof file of `domain` and compares it with `token`. Never throws for what the site does. */
export async function checkDomainProof(domain: string, token: string, timeoutMs = CHECK_TIMEOUT_MS): Promise<CheckResult> {
  const url = proofUrl(domain);
  const result = (outcome: CheckOutcome, message: string): CheckResult => ({ outcome, message, url });
  let response;
  try {
    response = await outboundRequest(url, {
      method: "GET",
      headers: { accept: "text/plain" },
      timeoutMs,
      maxResponseBytes: PROOF_MAX_BYTES,
    });
  } catch (error) {
    if (!(error instanceof OutboundRequestError)) throw error;
    switch (error.kind) {
      case "refused_address":
        return result("refused_address", `Not checked: ${error.message}. Only public websites can be verified.`);
      case "response_too_large":
        return result("too_large", `The file is larger than ${PROOF_MAX_BYTES / 1024} KiB; it should hold a few short lines.`);
      case "bad_url":
        return result("refused_address", `Not checked: the address ${error.message}.`);
      default:
        return result("unreachable", `Could not reach the website: ${error.message}.`);
    }
  }
  if (response.status !== 200) {
    return result("http_status", `${url} ${describeStatus(response.status, response.headers.location)}`);
  }
  const reading = readProof(response.body.toString("utf8"), token);
  if (reading === "found") return result("verified", `${url} contains your verification line.`);
  const expected = `the line ${proofLine(token)}`;
  return reading === "other_token"
    ? result("wrong_content", `${url} has a verification line, but with another token: it must contain ${expected}.`)
    : result("wrong_content", `${url} does not contain ${expected}.`);
}

/**
 * The whole check: the proof file, and the DNS TXT record alongside it; either proves the domain. When
 * neither does, the file's finding is the outcome (it is what most organizations set up) and the
 * message says what DNS had too.
 */
export async function checkDomainOwnership(domain: string, token: string): Promise<CheckResult> {
  const [file, record] = await Promise.all([checkDomainProof(domain, token), readDnsProof(domain, token)]);
  if (file.outcome === "verified") return file;
  const name = dnsRecordName(domain);
  if (record.reading === "found")
    return { outcome: "verified", message: `The DNS TXT record ${name} contains your verification line.`, url: file.url };
  const dnsNote =
    "reason" in record
      ? `The DNS TXT record ${name} could not be read: ${record.reason}.`
      : record.reading === "other_token"
        ? `The DNS TXT record ${name} has a verification line, but with another token.`
        : `No DNS TXT record ${name} carries it either.`;
  return { ...file, message: `${file.message} ${dnsNote}` };
}
