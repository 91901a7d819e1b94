// The other way to prove a domain: a DNS TXT record at `_credential-issuer.<domain>` whose text is the
// same line as in the file (`credential-issuer-verification=<token>`). Suits organizations that can
// edit their DNS but not their web server. This asks the configured resolver (DNS_SERVERS, else the
// system's), never the claimed host itself, so it reaches no address the claimant chose.
import { promises as dns } from "node:dns";
import { config } from "../config";
import { domainHost } from "./domain-name";
import { readProof, type ProofReading } from "./proof";

export const DNS_RECORD_PREFIX = "_credential-issuer.";

// Two tries (the resolver library doubles the wait on the second): a resolver that does not answer
// costs the check about 4.5 s, and the file is read meanwhile.
const RESOLVER_TIMEOUT_MS = 1500;
const RESOLVER_TRIES = 2;
/** More than any honest zone needs for this name: an answer beyond it is not read further. */
const MAX_RECORDS = 50;

export function dnsRecordName(domain: string): string {
  return `${DNS_RECORD_PREFIX}${domainHost(domain)}`;
}

export type DnsProof = { reading: ProofReading } | { reading: "unanswered"; reason: string };

/** What the TXT records of `_credential-issuer.<domain>` say about `token`. Never throws for DNS trouble. */
export async function readDnsProof(domain: string, token: string): Promise<DnsProof> {
  const resolver = new dns.Resolver({ timeout: RESOLVER_TIMEOUT_MS, tries: RESOLVER_TRIES });
  const servers = config().dnsServers;
  if (servers.length > 0) resolver.setServers([...servers]);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(dnsRecordName(domain));
  } catch (error) {
    const code = (error as { code?: string } | null)?.code ?? "";
    // No such name or no TXT record: an answer, and a plain "absent".
    if (code === dns.NOTFOUND || code === dns.NODATA) return { reading: "absent" };
    return {
      reading: "unanswered",
      reason: code === dns.TIMEOUT ? "the DNS lookup timed out" : `the DNS lookup failed (${code || "unknown error"})`,
    };
  }
  // A TXT record longer than 255 bytes comes in several strings; together they are its text.
  const lines = records.slice(0, MAX_RECORDS).map((chunks) => chunks.join(""));
  return { reading: readProof(lines.join("\n"), token) };
}
