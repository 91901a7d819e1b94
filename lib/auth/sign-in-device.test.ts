import { describe, expect, it } from "vitest";
import { appSecret } from "../app-secret";
import { cookieFromHeader, deviceCookieName, deviceCookieValue, readDeviceCookie } from "./sign-in-device";

const NOW = 1_800_000_000_000;

describe("the sign-in device cookie", () => {
  it("names the account it was made for, and each cookie has a key of its own", () => {
    const first = deviceCookieValue("usr_owner", 3, NOW);
    const second = deviceCookieValue("usr_owner", 3, NOW);
    expect(readDeviceCookie(first, NOW)).toEqual({ userId: "usr_owner", sessionVersion: 3, deviceKey: expect.any(String) });
    expect(readDeviceCookie(first, NOW)!.deviceKey).not.toBe(readDeviceCookie(second, NOW)!.deviceKey);
  });

  it("holds no secret: not the app secret, nothing but the user id, session version, expiry, nonce and signature", () => {
    const value = deviceCookieValue("usr_owner", 3, NOW);
    expect(value).not.toContain(appSecret());
    expect(value).toMatch(/^d2\.usr_owner\.3\.\d+\.[\w-]{16}\.[\w-]{43}$/);
  });

  it("opens nothing once altered, made for another account, expired or made up", () => {
    const value = deviceCookieValue("usr_owner", 3, NOW);
    const [version, , sessionVersion, expires, nonce, mac] = value.split(".");
    // Another account's id with this cookie's signature.
    expect(readDeviceCookie([version, "usr_attacker", sessionVersion, expires, nonce, mac].join("."), NOW)).toBeNull();
    // A later session version (as after "sign out everywhere") or a later expiry.
    expect(readDeviceCookie([version, "usr_owner", "4", expires, nonce, mac].join("."), NOW)).toBeNull();
    expect(readDeviceCookie([version, "usr_owner", sessionVersion, String(Number(expires) + 1), nonce, mac].join("."), NOW)).toBeNull();
    // One character of the signature changed.
    const flipped = mac!.slice(0, -2) + (mac!.at(-2) === "A" ? "B" : "A") + mac!.at(-1);
    expect(readDeviceCookie([version, "usr_owner", sessionVersion, expires, nonce, flipped].join("."), NOW)).toBeNull();
    // Expired after 180 days.
    expect(readDeviceCookie(value, NOW + 180 * 24 * 3600_000 + 1000)).toBeNull();
    for (const junk of ["", "d1", "d1.usr_owner.1.x.y", "x".repeat(400), `d1.${value.slice(3)}`])
      expect(readDeviceCookie(junk, NOW)).toBeNull();
    expect(readDeviceCookie(undefined, NOW)).toBeNull();
  });

  it("is read from a Cookie header by its exact name; a https site's name has the __Host- prefix", () => {
    expect(deviceCookieName(true)).toBe("__Host-cis.sign-in-device");
    expect(cookieFromHeader("a=1; cis.sign-in-device=d1.x; b=2", deviceCookieName(false))).toBe("d1.x");
    expect(cookieFromHeader("xcis.sign-in-device=d1.x", deviceCookieName(false))).toBeNull();
    expect(cookieFromHeader(undefined, deviceCookieName(false))).toBeNull();
  });

  it("accepts only the spelling it wrote: other base64url spellings of the same signature are not other browsers", () => {
    const value = deviceCookieValue("user_1", 0);
    const mac = value.slice(value.lastIndexOf(".") + 1);
    const body = value.slice(0, value.lastIndexOf(".") + 1);
    const last = mac.at(-1)!;
    // The last of 43 characters carries 4 unused bits: flipping them decodes to the same bytes.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sameBytes = alphabet[(alphabet.indexOf(last) & ~3) | (~alphabet.indexOf(last) & 3)]!;
    for (const variant of [`${mac}=`, `${mac}!`, `*${mac}`, `${mac.slice(0, -1)}${sameBytes}`]) {
      expect(readDeviceCookie(`${body}${variant}`), variant).toBeNull();
    }
    expect(readDeviceCookie(value)?.deviceKey).toBe(mac);
  });
});
