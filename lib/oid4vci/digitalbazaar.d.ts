// The parts of the Digital Bazaar did:key packages (plain JavaScript, no published types) the holder
// key resolution uses.
declare module "@digitalbazaar/did-method-key" {
  export type DidKeyVerificationMethod = { id: string; type: string; controller: string; publicKeyMultibase: string };
  export type DidKeyDocument = { id: string; verificationMethod: DidKeyVerificationMethod[]; assertionMethod?: string[] };
  export type DidKeyDriver = {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: (key: { publicKeyMultibase: string }) => Promise<unknown> }): void;
    get(options: { did: string }): Promise<DidKeyDocument>;
  };
  export function driver(): DidKeyDriver;
}

declare module "@digitalbazaar/ecdsa-multikey" {
  export function from(key: { publicKeyMultibase: string }): Promise<unknown>;
  export function toJwk(options: { keyPair: unknown }): Promise<Record<string, unknown>>;
}

declare module "@digitalbazaar/ed25519-multikey" {
  export function toJwk(options: { keyPair: unknown }): Promise<Record<string, unknown>>;
}
