// Which network addresses an outgoing request (a webhook delivery, a domain check) may reach. A user
// names the URL, so without this rule anyone could make the server call its own database, cloud
// metadata service or office network and read the answer back through a delivery log (SSRF).
import ipaddr from "ipaddr.js";

/**
 * Why `address` (an IPv4 or IPv6 literal) is not a public internet address, e.g. "loopback",
 * "private", "linkLocal", "uniqueLocal"; null when it is public. IPv4 addresses written as IPv6
 * (::ffff:10.0.0.1) are judged as the IPv4 address they are.
 */
export function nonPublicAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  // Everything ipaddr.js does not call plain "unicast" is special: loopback, private, link-local,
  // carrier-grade NAT, multicast, documentation, 6to4/Teredo/NAT64 (which embed IPv4 addresses), ...
  return range === "unicast" ? null : range;
}

/** True for a host name that is an IP literal (IPv6 may come bracketed, as in a URL). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(unbracket(host));
}

export function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** A loopback host: `localhost` (and its subdomains, which resolvers keep local) or a loopback literal. */
export function isLoopbackHost(host: string): boolean {
  const name = unbracket(host).toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return isIpLiteral(name) && nonPublicAddressReason(name) === "loopback";
}
