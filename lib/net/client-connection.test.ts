import { describe, expect, it } from "vitest";
import {
  clientConnection,
  isLoopback,
  plainHttpAllowed,
  CLIENT_ADDRESS_HEADER,
  CLIENT_FORWARDED_FOR_HEADER,
  CLIENT_FORWARDED_PROTO_HEADER,
  CLIENT_SCHEME_HEADER,
} from "./client-connection";

const headers = (h: Record<string, string>) => new Headers(h);

describe("isLoopback", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.5.6.7", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["10.0.0.1", false],
    ["1270.0.0.1", false],
    ["", false],
  ])("%s → %s", (address, expected) => expect(isLoopback(address)).toBe(expected));
});

describe("the HTTPS rule", () => {
  const socket = { [CLIENT_ADDRESS_HEADER]: "127.0.0.1", [CLIENT_SCHEME_HEADER]: "http" };

  it("lets loopback clients use plain HTTP", () => {
    expect(plainHttpAllowed(clientConnection(headers(socket), false), false)).toBe(true);
  });

  it("refuses plain HTTP from elsewhere unless ALLOW_HTTP", () => {
    const remote = clientConnection(headers({ ...socket, [CLIENT_ADDRESS_HEADER]: "203.0.113.9" }), false);
    expect(plainHttpAllowed(remote, false)).toBe(false);
    expect(plainHttpAllowed(remote, true)).toBe(true);
  });

  it("treats a request without the server's stamp as remote", () => {
    expect(plainHttpAllowed(clientConnection(headers({}), false), false)).toBe(false);
  });

  it("ignores X-Forwarded-Proto unless TRUST_PROXY", () => {
    const h = headers({ ...socket, [CLIENT_ADDRESS_HEADER]: "203.0.113.9", [CLIENT_FORWARDED_PROTO_HEADER]: "https" });
    expect(plainHttpAllowed(clientConnection(h, false), false)).toBe(false);
    expect(plainHttpAllowed(clientConnection(h, true), false)).toBe(true);
  });

  it("only trusts the forwarded headers as they arrived, not ones Next adds later", () => {
    const nextFilledIn = headers({
      ...socket,
      [CLIENT_FORWARDED_PROTO_HEADER]: "http",
      [CLIENT_FORWARDED_FOR_HEADER]: "",
      "x-forwarded-for": "127.0.0.1",
    });
    expect(plainHttpAllowed(clientConnection(nextFilledIn, true), false)).toBe(false);
  });

  it("behind a trusted proxy, the proxy's loopback address does not exempt the client", () => {
    const h = headers({ ...socket, [CLIENT_FORWARDED_PROTO_HEADER]: "http", [CLIENT_FORWARDED_FOR_HEADER]: "" });
    expect(plainHttpAllowed(clientConnection(h, true), false)).toBe(false);
    const fromLoopback = headers({
      ...socket,
      [CLIENT_FORWARDED_PROTO_HEADER]: "http",
      [CLIENT_FORWARDED_FOR_HEADER]: "198.51.100.1, 127.0.0.1",
    });
    expect(clientConnection(fromLoopback, true).address).toBe("127.0.0.1");
  });
});
