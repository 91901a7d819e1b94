// How the wallet page asks for a preview PNG: a `srcset` of the preview route's fixed widths (lib/previews
// PREVIEW_PNG_WIDTHS) and the full size, so a phone downloads about 800 px rather than 1600.
import { FULL_PREVIEW_WIDTH, PREVIEW_PNG_WIDTHS, type PreviewPngWidth } from "../previews/service";

/** A digest-versioned preview PNG URL at one of the smaller widths. */
export function previewAtWidth(pngUrl: string, width: PreviewPngWidth): string {
  return `${pngUrl}${pngUrl.includes("?") ? "&" : "?"}w=${width}`;
}

/** `srcset` for a preview PNG: each smaller width, then the full size. */
export function previewSrcSet(pngUrl: string): string {
  return [...PREVIEW_PNG_WIDTHS.map((w) => `${previewAtWidth(pngUrl, w)} ${w}w`), `${pngUrl} ${FULL_PREVIEW_WIDTH}w`].join(", ");
}

/**
 * `sizes` matching wallet.module.css: one column under 900 px (the page's side padding taken off),
 * beside the 400 px panel above it, in a page at most 1280 px wide.
 */
export const WALLET_PREVIEW_SIZES = "(max-width: 900px) calc(100vw - 32px), min(820px, calc(100vw - 480px))";
