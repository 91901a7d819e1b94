// The part of @digitalbazaar/ed25519-multikey (plain ESM JavaScript, no published types) this app uses.
declare module "@digitalbazaar/ed25519-multikey" {
  export type Ed25519Signer = { id?: string; algorithm: "Ed25519"; sign(input: { data: Uint8Array }): Promise<Uint8Array> };
  export type Ed25519Verifier = {
    id?: string;
    algorithm: "Ed25519";
    verify(input: { data: Uint8Array; signature: Uint8Array }): Promise<boolean>;
  };
  export type Ed25519MultikeyPair = {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    publicKey: Uint8Array;
    secretKey?: Uint8Array;
    signer(): Ed25519Signer;
    verifier(): Ed25519Verifier;
  };
  export function generate(options?: {
    id?: string;
    controller?: string;
    seed?: Uint8Array;
  }): Promise<Ed25519MultikeyPair & { secretKeyMultibase: string }>;
  export function from(key: {
    id?: string;
    controller?: string;
    type?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
  }): Promise<Ed25519MultikeyPair>;
}
