// The Digital Credentials Consortium's verification stack (their own maintained packages, which the
// app's signing path does not use), as e2e/api/verifiable-credentials.spec.ts calls it.
declare module "@digitalcredentials/vc" {
  export function verifyCredential(options: {
    credential: object;
    suite: unknown;
    documentLoader: (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;
    checkStatus?: () => Promise<{ verified: boolean }>;
    now?: Date;
  }): Promise<{ verified: boolean; error?: unknown; results?: { verified: boolean; error?: unknown }[] }>;
}
declare module "@digitalcredentials/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown });
  }
}
declare module "@digitalcredentials/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}
