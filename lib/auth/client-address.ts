// The client address the sign-in and password-reset limits are keyed by, for next-auth's handlers
// (plain header objects) and for server actions (next/headers). The app's server sets the headers
// clientConnection reads; TRUST_PROXY decides whether X-Forwarded-For speaks for the client.
import { isIPv4, isIPv6 } from "node:net";
import { headers as requestHeaders } from "next/headers";
import { clientConnection } from "../api/client-connection";
import { config } from "../config";

/** "unknown" when the address cannot be told: such clients share one set of limits. */
export function clientAddressOf(headers: Headers): string {
  return clientConnection(headers, config().trustProxy).address ?? "unknown";
}

export function clientAddressOfRecord(record: Record<string, unknown> | undefined): string {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record ?? {})) if (typeof value === "string") headers.set(name, value);
  return clientAddressOf(headers);
}

/** In a server action or server component. */
export async function currentClientAddress(): Promise<string> {
  return clientAddressOf(await requestHeaders());
}

/**
 * The block an address belongs to for limits on what one party may create (sign-ups): an IPv6 host
 * usually holds a whole /64 and can use any address in it, so limits keyed by the full address would
 * not hold. IPv4 addresses (and IPv4-mapped IPv6 ones) are their own block; anything else is returned
 * as it is ("unknown").
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
  return `${all.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
