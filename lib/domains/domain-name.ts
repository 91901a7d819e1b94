// The website domain an organization claims: a bare host name, strictly. What it stores is what the
// browser's URL parser makes of it (lowercase, international names in punycode), so "Uni.EDU",
// "uni.edu." and "uni.edu" are one domain, and "bücher.de" is stored as "xn--bcher-kva.de".
import { isIpLiteral } from "../net/address-policy";

export class DomainNameError extends Error {}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_LENGTH = 253;

/** `localhost` and its subdomains (RFC 6761: they never leave the machine). */
export function isLoopbackName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

export type DomainNameRules = {
  /**
   * The WEBHOOK_ALLOW_PRIVATE test switch: only then may a claim name `localhost` or a subdomain of it,
   * with a port, so that a test can serve the proof from a local server on a free port. Without it
   * neither a loopback name nor a port is ever accepted.
   */
  allowLoopback: boolean;
};

/**
 * The domain as stored, or a `DomainNameError` whose message completes "The domain ..." for the
 * person who typed it: a host name with at least one dot, no scheme, path, port or IP address.
 */
export function parseDomainName(raw: string, rules: DomainNameRules): string {
  const input = raw.trim();
  if (input === "") throw new DomainNameError("must not be empty");
  if (input.length > MAX_LENGTH + 7) throw new DomainNameError(`must be at most ${MAX_LENGTH} characters`);
  if (/[\s/\\?#@]/.test(input) || input.includes("://")) {
    throw new DomainNameError("must be a host name only, like example.edu: no https://, path, spaces or @");
  }
  if (input.startsWith("[") || isIpLiteral(input)) throw new DomainNameError("must be a host name, not an IP address");

  let url: URL;
  try {
    url = new URL(`http://${input}`);
  } catch {
    throw new DomainNameError("is not a valid host name");
  }
  // The URL parser reads "10.1" or "0x7f.1" as IPv4 addresses: only a name that stays a name is a domain.
  const host = url.hostname.replace(/\.$/, "");
  if (isIpLiteral(host)) throw new DomainNameError("must be a host name, not an IP address");
  if (host.length > MAX_LENGTH) throw new DomainNameError(`must be at most ${MAX_LENGTH} characters`);
  const labels = host.split(".");
  if (labels.some((label) => !LABEL.test(label))) {
    throw new DomainNameError("may contain only letters, digits and '-' in each dot-separated part (no '_', no empty parts)");
  }

  const loopback = isLoopbackName(host);
  if (loopback && !rules.allowLoopback) throw new DomainNameError("must be a public domain, not localhost");
  // Any ':' is a port (IPv6 literals were refused above); the parser drops a default one like ":80".
  if (input.includes(":")) {
    if (!(loopback && rules.allowLoopback) || url.port === "") throw new DomainNameError("must not include a port");
    return `${host}:${url.port}`;
  }
  if (!loopback && labels.length < 2) throw new DomainNameError("must contain at least one dot, like example.edu");
  return host;
}

/** The host name part of a stored domain (a test claim on a loopback name may carry a port). */
export function domainHost(domain: string): string {
  return domain.replace(/:\d+$/, "");
}
