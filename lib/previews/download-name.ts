// The file name a downloaded preview is saved under. It is built from user text (a group's and a
// recipient's name, or the `?download=` a link carries), so it is cleaned here, in one place, for the
// wallet's links and for the preview server's Content-Disposition: the extension is always the one
// of the bytes served, and nothing in the name can make it read as another (a right-to-left override
// turns "invoice\u202Egnp.exe" into what looks like "invoiceexe.png").
export type DownloadFormat = "png" | "pdf";

// Control characters (C0, DEL, C1); bidirectional marks, embeddings, overrides and isolates; zero-width
// and other invisible characters; line and paragraph separators; the byte order mark. Then what file
// systems refuse or read as a path: slashes, quotes and Windows' reserved characters.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\\/:*?"<>|]+/g;
const MAX_BASE_CHARACTERS = 150;

/** `name` cleaned, shortened, and ending in `.png` or `.pdf` (exactly one, the right one). */
export function safeDownloadName(name: string, format: DownloadFormat): string {
  let base = name.normalize("NFC").replace(UNSAFE, " ").replace(/\s+/g, " ").trim();
  base = base.replace(new RegExp(`\\.${format}$`, "i"), "");
  // Shortened by characters, not UTF-16 units, so no surrogate pair is cut in half.
  base = [...base].slice(0, MAX_BASE_CHARACTERS).join("");
  // No leading dot (a hidden file), no trailing dots or spaces (Windows drops them, which would leave
  // the name ending in whatever came before).
  base = base.replace(/^[.\s]+|[.\s]+$/g, "");
  return `${base || "credential"}.${format}`;
}

/** RFC 5987's attr-char leaves out some characters encodeURIComponent keeps. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment` with an ASCII `filename` every client reads and, for a name that is not ASCII, the
 *  exact one as UTF-8 `filename*` (RFC 6266). `fileName` must come from safeDownloadName. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    // Compatibility forms decompose to ASCII quotes and slashes too (U+FF02 to '"'), so those go after.
    .replace(/[^\x20-\x7e]|[%"\\/:*?<>|]/g, "_");
  const exact = /^[\x20-\x7e]*$/.test(fileName) ? "" : `; filename*=UTF-8''${encodeRfc5987(fileName)}`;
  return `attachment; filename="${ascii}"${exact}`;
}
