// Names of the files in a recipient's "download all" archive. They are built from issuers' text (an
// organization's and a group's name), so, like lib/previews/download-name.ts for single downloads,
// only letters, marks and digits survive: nothing that is a path separator, a control or bidirectional
// character, or a dot that could fake an extension. Each credential gets a folder named for its issuer,
// its title and its publicId (unique by construction), holding `credential.json` and one PNG and one
// PDF per design.

const MAX_SLUG_CHARACTERS = 40;

/** Lower-case words of letters and digits joined by hyphens, at most 40 characters; `fallback` when none are left. */
export function fileNameSlug(text: string, fallback: string): string {
  const words = text
    .normalize("NFC")
    .toLocaleLowerCase("en-US")
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    // A combining mark cannot start a name (it would sit on the separator before it).
    .replace(/^[\p{M}-]+|-+$/gu, "");
  // By characters, not UTF-16 units, so no surrogate pair is cut in half; no hyphen left at the cut.
  const cut = [...words].slice(0, MAX_SLUG_CHARACTERS).join("").replace(/-+$/, "");
  return cut || fallback;
}

export type ArchiveDesign = { id: string; name: string };

/** The folder of one credential in the archive. */
export function credentialFolder(credential: { publicId: string; title: string; organizationName: string }): string {
  return `${fileNameSlug(credential.organizationName, "issuer")}-${fileNameSlug(credential.title, "credential")}-${credential.publicId}`;
}

/**
 * The base name (no extension) of each design's files inside the credential's folder: the title for a
 * single design, the title and the design's name for several (numbered when two names would agree).
 */
export function designFileBases(title: string, designs: ArchiveDesign[]): Map<string, string> {
  const titleSlug = fileNameSlug(title, "credential");
  const names = new Map<string, string>();
  const used = new Set<string>(["credential"]);
  for (const design of designs) {
    const base = designs.length === 1 ? titleSlug : `${titleSlug}-${fileNameSlug(design.name, "design")}`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    names.set(design.id, name);
  }
  return names;
}
