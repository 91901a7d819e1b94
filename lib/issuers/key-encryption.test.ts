import { describe, expect, it } from "vitest";
import { decryptSecretKey, encryptSecretKey, KeyDecryptionError } from "./key-encryption";

const SECRET = "zrv2EET2WWZ8T1Jbg4fEH5cQxhbUS22XxdweypUbjWVzv1YD6VqYuW6LH7heQCNYQCuoKaDwvv2qCWz3uBzG2xesqmf";
const BINDING = { keyId: "ikey_1", organizationId: "org_1", publicKeyMultibase: "z6MkPublic" };
const APP_SECRET = "app-secret-one";

function flipCharAt(text: string, index: number): string {
  return text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1);
}

describe("issuer secret keys at rest", () => {
  it("round-trips, and the stored form holds nothing of the secret in clear", () => {
    const stored = encryptSecretKey(SECRET, BINDING, APP_SECRET);
    expect(stored).not.toContain(SECRET.slice(0, 12));
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decryptSecretKey(stored, BINDING, APP_SECRET)).toBe(SECRET);
  });

  it("uses a fresh nonce each time: the same key encrypts differently", () => {
    expect(encryptSecretKey(SECRET, BINDING, APP_SECRET)).not.toBe(encryptSecretKey(SECRET, BINDING, APP_SECRET));
  });

  it("refuses a tampered ciphertext, tag or nonce", () => {
    const stored = encryptSecretKey(SECRET, BINDING, APP_SECRET);
    const [version, nonce, ciphertext, tag] = stored.split(".") as [string, string, string, string];
    for (const altered of [
      [version, nonce, flipCharAt(ciphertext, 5), tag],
      [version, nonce, ciphertext, flipCharAt(tag, 3)],
      [version, flipCharAt(nonce, 2), ciphertext, tag],
      [version, nonce, ciphertext.slice(0, -2), tag],
    ]) {
      expect(() => decryptSecretKey(altered.join("."), BINDING, APP_SECRET)).toThrow(KeyDecryptionError);
    }
  });

  it("refuses a different app secret", () => {
    const stored = encryptSecretKey(SECRET, BINDING, APP_SECRET);
    expect(() => decryptSecretKey(stored, BINDING, "app-secret-two")).toThrow(KeyDecryptionError);
  });

  it("refuses a ciphertext moved to another key row or organization", () => {
    const stored = encryptSecretKey(SECRET, BINDING, APP_SECRET);
    expect(() => decryptSecretKey(stored, { ...BINDING, keyId: "ikey_2" }, APP_SECRET)).toThrow(KeyDecryptionError);
    expect(() => decryptSecretKey(stored, { ...BINDING, organizationId: "org_2" }, APP_SECRET)).toThrow(KeyDecryptionError);
    expect(() => decryptSecretKey(stored, { ...BINDING, publicKeyMultibase: "z6MkOther" }, APP_SECRET)).toThrow(KeyDecryptionError);
  });

  it("refuses malformed stored values without echoing them", () => {
    for (const bad of ["", "v1", "v2.a.b.c", "v1.a.b.c.d", "v1.!!.b.c"]) {
      expect(() => decryptSecretKey(bad, BINDING, APP_SECRET)).toThrow(KeyDecryptionError);
    }
    expect(() => decryptSecretKey("v1.AAAAAAAAAAAAAAAA.BBBB.CCCCCCCCCCCCCCCCCCCCCC", BINDING, APP_SECRET)).toThrow(
      /^The issuer key could not be decrypted: the app secret changed or the stored key was altered\.$/,
    );
  });
});
