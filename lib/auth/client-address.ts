// The client address the sign-in and password-reset limits are keyed by, for next-auth's handlers
// (plain header objects) and for server actions (next/headers). The app's server sets the headers
// clientConnection reads; TRUST_PROXY decides whether X-Forwarded-For speaks for the client.
import { headers as requestHeaders } from "next/headers";
import { clientConnection } from "../net/client-connection";
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
