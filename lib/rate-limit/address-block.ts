// Which addresses count as one client for per-address rate limits.
import { isIPv4, isIPv6 } from "node:net";

/**
 * The block an address belongs to for per-address limits: an IPv6 host usually holds a whole /64 and
 * can use any address in it, so limits keyed by the full address would not hold. IPv4 addresses (and
 * IPv4-mapped IPv6 ones) are their own block; anything else is returned as it is ("unknown").
 */
export function addressBlock(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head, tail] = address.toLowerCase().split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const first = groups(head);
  const last = groups(tail);
  const all = tail === undefined ? first : [...first, ...Array<string>(8 - first.length - last.length).fill("0"), ...last];
  return `${all
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
