import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { newSigningSecret, signatureHeaders } from "./secrets";

describe("webhook signatures", () => {
  it("makes whsec_ secrets of 32 random bytes, different each time", () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  it("signs v1,<base64 HMAC-SHA256 of id.timestamp.body> keyed with the decoded secret, as Standard Webhooks signs", () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ id: "evt_1", type: "group.created", createdAt: "2026-01-01T00:00:00.000Z", data: { id: "grp_1" } });
    const headers = signatureHeaders("evt_1", body, [secret], new Date(1_700_000_000_123));
    expect(headers["webhook-id"]).toBe("evt_1");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    const expected = createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
      .update(`evt_1.1700000000.${body}`)
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
    // And byte for byte what the format's reference library makes.
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("evt_1", new Date(1_700_000_000_123), body));
  });

  it("signs with both secrets during a rotation; a receiver with either one verifies, a stranger does not", () => {
    const [fresh, old, stranger] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const body = '{"id":"evt_2"}';
    const headers = signatureHeaders("evt_2", body, [fresh, old]);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(fresh).verify(body, headers)).toEqual({ id: "evt_2" });
    expect(new Webhook(old).verify(body, headers)).toEqual({ id: "evt_2" });
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow();
    expect(() => new Webhook(fresh).verify(body.replace("2", "3"), headers)).toThrow();
  });
});
