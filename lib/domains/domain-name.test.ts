import { describe, expect, it } from "vitest";
import { DomainNameError, parseDomainName } from "./domain-name";

const publicRules = { allowLoopback: false };
const testRules = { allowLoopback: true };

describe("parseDomainName", () => {
  it.each([
    ["example.edu", "example.edu"],
    ["  Uni.Example.EDU  ", "uni.example.edu"],
    ["uni.edu.", "uni.edu"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["a-b.c0.org", "a-b.c0.org"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
  ])("accepts %j as %j", (raw, stored) => {
    expect(parseDomainName(raw, publicRules)).toBe(stored);
  });

  it.each([
    ["", "must not be empty"],
    ["   ", "must not be empty"],
    ["https://example.edu", "host name only"],
    ["example.edu/path", "host name only"],
    ["example.edu?x=1", "host name only"],
    ["user@example.edu", "host name only"],
    ["exa mple.edu", "host name only"],
    ["example.edu:443", "must not include a port"],
    ["example.edu:80", "must not include a port"],
    ["example.edu:", "must not include a port"],
    ["192.168.1.10", "not an IP address"],
    ["8.8.8.8", "not an IP address"],
    ["10.1", "not an IP address"],
    ["0x7f.1", "not an IP address"],
    ["[::1]", "not an IP address"],
    ["::1", "not an IP address"],
    ["intranet", "at least one dot"],
    ["localhost", "not localhost"],
    ["uni.localhost", "not localhost"],
    ["localhost:8080", "not localhost"],
    ["under_score.edu", "only letters, digits"],
    ["-lead.edu", "only letters, digits"],
    ["trail-.edu", "only letters, digits"],
    ["a..b.edu", "only letters, digits"],
    [`${"a".repeat(64)}.edu`, "only letters, digits"],
    [`${"a.".repeat(130)}edu`, "at most 253"],
  ])("refuses %j: %s", (raw, why) => {
    expect(() => parseDomainName(raw, publicRules)).toThrow(DomainNameError);
    expect(() => parseDomainName(raw, publicRules)).toThrow(why);
  });

  it("accepts loopback names, with a port, only under the test switch", () => {
    expect(parseDomainName("localhost:43123", testRules)).toBe("localhost:43123");
    expect(parseDomainName("Uni.Localhost", testRules)).toBe("uni.localhost");
    expect(parseDomainName("localhost", testRules)).toBe("localhost");
    // The switch does not open ports or addresses for anything else.
    expect(() => parseDomainName("example.edu:8443", testRules)).toThrow("must not include a port");
    expect(() => parseDomainName("127.0.0.1", testRules)).toThrow("not an IP address");
    expect(() => parseDomainName("localhost:", testRules)).toThrow("must not include a port");
  });
});
