// What the wallet page offers to do with a credential besides verifying it, by the credential's state.
// The one place for the rule: a credential that still stands offers everything (share, add to profile,
// downloads, QR code, embed); a private one that still stands only its files, and the offer to make it
// public first (its link opens for nobody else, so sharing it would hand out a dead link); an expired
// one only its files; a revoked one nothing at all. What is not
// offered is not sent either: the client components get null instead of the URLs, so the page's HTML
// (and the data React serializes into it) holds no share or download link the page does not show.
import type { ShareTarget } from "./share-links";

export type CredentialState = "valid" | "expired" | "revoked";

export type Download = { name: string; png: string; pdf: string; pngFileName: string; pdfFileName: string };

/** What the system share sheet gets. */
export type ShareSheet = { title: string; text: string; url: string };

export type QrCode = { svg: string; png: string; label: string };

/** The recipient's tools at the end of the page; a section whose field is null (or empty) is not shown. */
export type RecipientToolsOffer = {
  downloads: Download[];
  sharing: { url: string; targets: ShareTarget[] } | null;
  qr: QrCode | null;
  embed: string | null;
};

export type WalletOffers = {
  /** The recipient's Share button on the first screen. */
  share: ShareSheet | null;
  addToLinkedInUrl: string | null;
  /** null: no recipient tools at all. */
  tools: RecipientToolsOffer | null;
  /** A private credential that still stands: "make it public to share it" instead of the share buttons. */
  makePublicToShare: boolean;
};

/** Everything the page could offer a credential that still stands. Thunks, so nothing is built that is not offered. */
export type EverythingOffered = {
  share: () => ShareSheet;
  addToLinkedInUrl: () => string;
  downloads: () => Download[];
  sharing: () => { url: string; targets: ShareTarget[] };
  qr: () => QrCode;
  embed: () => string | null;
};

export function walletOffers(state: CredentialState, visibility: "public" | "private", everything: EverythingOffered): WalletOffers {
  switch (state) {
    case "valid":
      if (visibility === "private") return { ...filesOnly(everything), makePublicToShare: true };
      return {
        share: everything.share(),
        addToLinkedInUrl: everything.addToLinkedInUrl(),
        tools: { downloads: everything.downloads(), sharing: everything.sharing(), qr: everything.qr(), embed: everything.embed() },
        makePublicToShare: false,
      };
    case "expired":
      // The recipient may keep their files; the credential is not put forward as current anywhere.
      return { ...filesOnly(everything), makePublicToShare: false };
    case "revoked":
      return { share: null, addToLinkedInUrl: null, tools: null, makePublicToShare: false };
  }
}

function filesOnly(everything: EverythingOffered) {
  return { share: null, addToLinkedInUrl: null, tools: { downloads: everything.downloads(), sharing: null, qr: null, embed: null } };
}
