// Who is on the other end of a request, and over what scheme. Route handlers cannot see the socket,
// so the app's server (server.ts) writes these two headers on every request, overwriting anything a
// client sent under the same names. Missing headers mean "unknown": treated as remote and plain HTTP.
import { isIP } from "node:net";

export const CLIENT_ADDRESS_HEADER = "x-cis-client-address";
export const CLIENT_SCHEME_HEADER = "x-cis-scheme";
/** X-Forwarded-For / -Proto exactly as they arrived ("" when absent), before Next adds its own. */
export const CLIENT_FORWARDED_FOR_HEADER = "x-cis-forwarded-for";
export const CLIENT_FORWARDED_PROTO_HEADER = "x-cis-forwarded-proto";

export function isLoopback(address: string | null): boolean {
  if (!address) return false;
  const a = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (a === "::1") return true;
  return isIP(a) === 4 && a.startsWith("127.");
}

export type ClientConnection = { address: string | null; scheme: "http" | "https" };

/**
 * The effective client. With TRUST_PROXY, a proxy in front speaks for the client: the scheme comes from
 * X-Forwarded-Proto and the address from the last X-Forwarded-For entry (the one our proxy added);
 * without a forwarded address, the client is unknown rather than the proxy's loopback address.
 */
export function clientConnection(headers: Headers, trustProxy: boolean): ClientConnection {
  const socketAddress = headers.get(CLIENT_ADDRESS_HEADER);
  const socketScheme = headers.get(CLIENT_SCHEME_HEADER) === "https" ? "https" : "http";
  if (trustProxy) {
    const proto = headers.get(CLIENT_FORWARDED_PROTO_HEADER)?.split(",")[0]?.trim().toLowerCase() || undefined;
    const forwardedFor = headers
      .get(CLIENT_FORWARDED_FOR_HEADER)
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (proto) {
      return { scheme: proto === "https" ? "https" : "http", address: forwardedFor?.at(-1) ?? null };
    }
    if (forwardedFor?.length) return { scheme: socketScheme, address: forwardedFor.at(-1)! };
  }
  return { address: socketAddress, scheme: socketScheme };
}

/** The contract's HTTPS rule: plain HTTP only from loopback, or anywhere with ALLOW_HTTP. */
export function plainHttpAllowed(client: ClientConnection, allowHttp: boolean): boolean {
  return client.scheme === "https" || allowHttp || isLoopback(client.address);
}
