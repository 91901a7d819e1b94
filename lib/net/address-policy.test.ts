import { describe, expect, it } from "vitest";
import { isLoopbackHost, nonPublicAddressReason } from "./address-policy";

describe("nonPublicAddressReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(nonPublicAddressReason(address)).toBe(reason);
  });

  it("refuses addresses that embed IPv4 by translation (NAT64, 6to4)", () => {
    expect(nonPublicAddressReason("64:ff9b::a00:1")).not.toBeNull();
    expect(nonPublicAddressReason("2002:a00:1::")).not.toBeNull();
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("accepts the public address %s", (address) => {
    expect(nonPublicAddressReason(address)).toBeNull();
  });

  it("calls a string that is no address invalid", () => {
    expect(nonPublicAddressReason("example.com")).toBe("invalid");
  });
});

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST.", "api.localhost", "127.0.0.1", "[::1]"])("%s is loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(["example.com", "localhost.example.com", "10.0.0.1", "[fd00::1]"])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
