import { describe, expect, it } from "vitest";
import { addressBlock } from "./address-block";

describe("addressBlock", () => {
  it("groups IPv6 addresses by their /64, however they are written; IPv4 is its own block", () => {
    expect(addressBlock("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:0DB8:0001:0002:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(addressBlock("::1")).toBe("0:0:0:0::/64");
    expect(addressBlock("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(addressBlock("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
    expect(addressBlock("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressBlock("198.51.100.7")).toBe("198.51.100.7");
    expect(addressBlock("unknown")).toBe("unknown");
  });
});
