import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { HolderKeyError, didJwkFor, resolveHolderKey } from "./holder-keys";

describe("holder keys", () => {
  it("resolves an Ed25519 did:key to the key's JWK", async () => {
    const pair = await Ed25519Multikey.generate();
    const did = `did:key:${pair.publicKeyMultibase}`;
    const resolved = await resolveHolderKey(`${did}#${pair.publicKeyMultibase}`);
    expect(resolved.did).toBe(did);
    expect(resolved.jwk).toEqual({ kty: "OKP", crv: "Ed25519", x: Buffer.from(pair.publicKey).toString("base64url") });
  });

  it("turns a bare JWK into its did:jwk and back", async () => {
    const { publicKey } = await generateKeyPair("ES256");
    const jwk = await exportJWK(publicKey);
    const did = didJwkFor(jwk as never);
    expect(did.startsWith("did:jwk:")).toBe(true);
    expect((await resolveHolderKey(`${did}#0`)).jwk).toEqual({ crv: "P-256", kty: "EC", x: jwk.x, y: jwk.y });
  });

  it("refuses private keys, other methods and fragments that name another key", async () => {
    const { privateKey } = await generateKeyPair("EdDSA", { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    expect(() => didJwkFor(privateJwk as never)).toThrow(HolderKeyError);
    await expect(resolveHolderKey("did:web:example.com")).rejects.toThrow(HolderKeyError);
    const pair = await Ed25519Multikey.generate();
    await expect(resolveHolderKey(`did:key:${pair.publicKeyMultibase}#other`)).rejects.toThrow(HolderKeyError);
    await expect(resolveHolderKey("did:key:zNotAKey")).rejects.toThrow(HolderKeyError);
    await expect(resolveHolderKey("did:jwk:not-json")).rejects.toThrow(HolderKeyError);
  });
});
