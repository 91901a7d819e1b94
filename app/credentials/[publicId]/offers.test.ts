import { describe, expect, it } from "vitest";
import { walletOffers, type EverythingOffered } from "./offers";

const everything: EverythingOffered = {
  share: () => ({ title: "Course", text: "I earned it", url: "https://w.example/credentials/abc" }),
  addToLinkedInUrl: () => "https://www.linkedin.com/profile/add?name=Course",
  downloads: () => [
    {
      name: "Certificate",
      png: "https://w.example/credentials/abc/badge.png?design=des_1&download=a.png",
      pdf: "https://w.example/previews/d.pdf?download=a.pdf",
      pngFileName: "a.png",
      pdfFileName: "a.pdf",
    },
  ],
  sharing: () => ({ url: "https://w.example/credentials/abc", targets: [] }),
  qr: () => ({ svg: "/credentials/abc/qr.svg", png: "/credentials/abc/qr.png?download=qr.png", label: "Course" }),
  embed: () => '<a href="https://w.example/credentials/abc"><img src="https://w.example/previews/d.png?w=800"></a>',
};

describe("what the wallet page offers", () => {
  it("a credential that still stands: share, add to profile, downloads, QR code and embed", () => {
    const offers = walletOffers("valid", "public", everything);
    expect(offers.share).not.toBeNull();
    expect(offers.addToLinkedInUrl).not.toBeNull();
    expect(offers.tools).toEqual({
      downloads: everything.downloads(),
      sharing: everything.sharing(),
      qr: everything.qr(),
      embed: everything.embed(),
    });
  });

  it("an expired one: only its files", () => {
    expect(walletOffers("expired", "public", everything)).toEqual({
      share: null,
      addToLinkedInUrl: null,
      tools: { downloads: everything.downloads(), sharing: null, qr: null, embed: null },
      makePublicToShare: false,
    });
  });

  it("a revoked one: nothing to share, add or download, and no URL of one is even built", () => {
    const built: string[] = [];
    const watched = Object.fromEntries(
      Object.entries(everything).map(([key, build]) => [key, () => (built.push(key), (build as () => unknown)())]),
    ) as EverythingOffered;
    const offers = walletOffers("revoked", "public", watched);
    expect(offers).toEqual({ share: null, addToLinkedInUrl: null, tools: null, makePublicToShare: false });
    expect(built).toEqual([]);
    expect(JSON.stringify(offers)).not.toMatch(/download=|\.pdf|\.png|https?:/i);
  });

  it("a private one: its files, no public sharing, and the offer to make it public to share it", () => {
    const built: string[] = [];
    const watched = Object.fromEntries(
      Object.entries(everything).map(([key, build]) => [key, () => (built.push(key), (build as () => unknown)())]),
    ) as EverythingOffered;
    const offers = walletOffers("valid", "private", watched);
    expect(offers).toEqual({
      share: null,
      addToLinkedInUrl: null,
      tools: { downloads: everything.downloads(), sharing: null, qr: null, embed: null },
      makePublicToShare: true,
    });
    // No share, LinkedIn, QR or embed URL is even built for the page's HTML.
    expect(built).toEqual(["downloads"]);
  });

  it("a private expired or revoked one: as when public, with nothing to make public for", () => {
    expect(walletOffers("expired", "private", everything)).toEqual(walletOffers("expired", "public", everything));
    expect(walletOffers("revoked", "private", everything)).toEqual(walletOffers("revoked", "public", everything));
  });
});
