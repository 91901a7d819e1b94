// The small formatting set an issuer writes a credential email's text in: paragraphs (a blank line
// between them; a single line break is kept), **bold**, links written [label](address) and the
// `[attribute]` placeholders of designs. Nothing else is markup: `<b>`, `#`, `_` and the rest are the
// issuer's words and are shown as they are. Parsing works on the template, before any value is filled
// in, so a recipient's name can never add a link or bold text.
//
// Strict on purpose: a link to anything but http(s) or mailto, an unknown placeholder or a `**` left
// open is a problem the issuer is told about when saving, never something quietly dropped.
import { BUILTIN_ATTRIBUTES, CUSTOM_ATTRIBUTE_KEY, PLACEHOLDER } from "./document";

export type MarkupInline =
  | { kind: "text"; text: string }
  | { kind: "break" }
  | { kind: "bold"; children: MarkupInline[] }
  | { kind: "link"; label: string; url: string };

/** A paragraph: its inline pieces, line breaks included. */
export type MarkupParagraph = MarkupInline[];

export type ParsedMarkup = { paragraphs: MarkupParagraph[]; problems: string[] };

/** The one placeholder a whole link address may be: the recipient's wallet link, which is ours. */
export const WALLET_LINK_PLACEHOLDER = "[credential.url]";

const SAFE_SCHEMES = ["http://", "https://", "mailto:"] as const;
/** The placeholder pattern without its capture, to build others from. */
const PLACEHOLDER_SOURCE = PLACEHOLDER.source.replace("\\[(", "\\[(?:");
/**
 * The start of a link, `[label](`: a label of text and placeholders on one line (it stops at the next
 * bracket, so trying it costs little). The address runs to the next ")" with no space before it; where
 * that is comes from a table made once per paragraph, so a text full of unfinished links stays linear.
 */
const LINK_LABEL = new RegExp(`\\[((?:[^\\[\\]\\n]|${PLACEHOLDER_SOURCE})+)\\]\\(`, "y");
const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER_SOURCE}$`);

/** The attributes an email can name: those designs can, and any `custom.<tag>`. */
export function isEmailAttribute(name: string): boolean {
  return (BUILTIN_ATTRIBUTES as readonly string[]).includes(name) || CUSTOM_ATTRIBUTE_KEY.test(name);
}

/** Problems with the placeholders of any email field (subject, text or the issuer's own HTML). */
export function placeholderProblems(text: string): string[] {
  const unknown = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (!isEmailAttribute(m[1]!)) unknown.add(m[0]);
  return [...unknown].map(
    (tag) => `unknown placeholder ${tag}: use one of ${BUILTIN_ATTRIBUTES.map((a) => `[${a}]`).join(", ")} or [custom.<tag>]`,
  );
}

/**
 * Why a link address is refused, or null when it is fine: it must start with http://, https:// or
 * mailto: as written (placeholders may fill in the rest, never the scheme), or be [credential.url].
 */
export function linkAddressProblem(address: string): string | null {
  const shown = address.length > 80 ? `${address.slice(0, 77)}...` : address;
  if (address === WALLET_LINK_PLACEHOLDER) return null;
  if (WHOLE_PLACEHOLDER.test(address)) {
    return `the link address ${shown} is refused: only ${WALLET_LINK_PLACEHOLDER} may be a whole address; write others as https://...`;
  }
  const scheme = SAFE_SCHEMES.find((s) => address.toLowerCase().startsWith(s));
  if (!scheme) return `the link address "${shown}" is refused: links must start with http://, https:// or mailto:`;
  const url = URL.parse(address.replace(new RegExp(PLACEHOLDER_SOURCE, "g"), "x"));
  if (!url || (scheme !== "mailto:" && !url.hostname) || (scheme === "mailto:" && url.pathname === "")) {
    return `the link address "${shown}" is not a complete ${scheme.replace(/[:/]+$/, "")} address`;
  }
  return null;
}

/** Pieces being collected, and for bold text the line its `**` opened on. */
type Frame = { children: MarkupInline[]; boldStart: number | null };

/** Parses the issuer's text; `problems` (with line numbers) is empty when it can be saved. */
export function parseEmailMarkup(source: string): ParsedMarkup {
  const text = source.replace(/\r\n?/g, "\n");
  const problems: string[] = [...placeholderProblems(text)];
  const paragraphs: MarkupParagraph[] = [];
  // Paragraphs are runs of lines with words on them; a line of nothing but spaces ends one.
  let lines: string[] = [];
  let firstLine = 0;
  const endParagraph = () => {
    const body = lines.join("\n").trim();
    if (body) paragraphs.push(parseParagraph(body, firstLine, problems));
    lines = [];
  };
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return endParagraph();
    if (lines.length === 0) firstLine = index + 1;
    lines.push(line);
  });
  endParagraph();
  return { paragraphs, problems };
}

function parseParagraph(body: string, firstLine: number, problems: string[]): MarkupParagraph {
  let line = firstLine;
  // stops[j]: where an address starting at j ends, the first space or ")" from j on (or the end).
  const stops = new Array<number>(body.length + 1);
  stops[body.length] = body.length;
  for (let j = body.length - 1; j >= 0; j--) stops[j] = /[\s)]/.test(body[j]!) ? j : stops[j + 1]!;
  const root: Frame = { children: [], boldStart: null };
  let bold: Frame | null = null;
  let pending = "";
  const current = () => bold ?? root;
  const flush = () => {
    if (pending) current().children.push({ kind: "text", text: pending });
    pending = "";
  };
  for (let i = 0; i < body.length;) {
    if (body.startsWith("**", i)) {
      flush();
      if (bold) {
        root.children.push({ kind: "bold", children: bold.children });
        bold = null;
      } else {
        bold = { children: [], boldStart: line };
      }
      i += 2;
      continue;
    }
    if (body[i] === "[") {
      LINK_LABEL.lastIndex = i;
      const m = LINK_LABEL.exec(body);
      const addressStart = i + (m?.[0].length ?? 0);
      const addressEnd = m ? stops[addressStart]! : -1;
      if (m && body[addressEnd] === ")") {
        flush();
        const url = body.slice(addressStart, addressEnd);
        const problem = linkAddressProblem(url);
        if (problem) problems.push(`line ${line}: ${problem}`);
        current().children.push({ kind: "link", label: m[1]!, url });
        i = addressEnd + 1;
        continue;
      }
    }
    if (body[i] === "\n") {
      line += 1;
      flush();
      current().children.push({ kind: "break" });
      i += 1;
      continue;
    }
    pending += body[i];
    i += 1;
  }
  flush();
  if (bold) {
    problems.push(`line ${bold.boldStart}: bold text opened with ** is not closed in its paragraph`);
    // Shown as written (the issuer is told above); nothing after it is lost.
    root.children.push({ kind: "text", text: "**" }, ...bold.children);
  }
  return mergeText(root.children);
}

/** Joins neighbouring text pieces (an unclosed `**` leaves some apart). */
function mergeText(pieces: MarkupInline[]): MarkupInline[] {
  const out: MarkupInline[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (piece.kind === "text" && last?.kind === "text") out[out.length - 1] = { kind: "text", text: last.text + piece.text };
    else out.push(piece);
  }
  return out;
}

/** The problems of a text, for validation: empty when it can be saved. */
export function emailMarkupProblems(source: string): string[] {
  return parseEmailMarkup(source).problems;
}

/**
 * The text as a plain-text email part: bold marks dropped, each link written out after its label
 * ("label (address)"; just the address when the label is the address). Placeholders stay, to be
 * filled in with the values as they are.
 */
export function markupToPlainText(paragraphs: MarkupParagraph[]): string {
  const inline = (pieces: MarkupInline[]): string =>
    pieces
      .map((p) => {
        switch (p.kind) {
          case "text":
            return p.text;
          case "break":
            return "\n";
          case "bold":
            return inline(p.children);
          case "link":
            return p.label === p.url ? p.url : `${p.label} (${p.url.replace(/^mailto:/i, "")})`;
        }
      })
      .join("");
  return paragraphs.map(inline).join("\n\n");
}

/** Attributes of the issuer's own HTML whose value a mail client may follow or load. */
const URL_ATTRIBUTE = /\s(href|src|action|formaction|background|poster)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;

/**
 * Problems with the links and images of the issuer's own HTML (the API's `html`): each must be an
 * http(s) or mailto address, or start with a placeholder (filled in and checked when the email is
 * written, since a value is only known then).
 */
export function htmlLinkProblems(html: string): string[] {
  const problems: string[] = [];
  for (const m of html.matchAll(URL_ATTRIBUTE)) {
    const address = (m[2] ?? m[3] ?? m[4] ?? "").trim();
    if (new RegExp(`^${PLACEHOLDER_SOURCE}`).test(address)) continue;
    const problem = linkAddressProblem(address);
    if (problem) problems.push(`${m[1]!.toLowerCase()}: ${problem}`);
  }
  return [...placeholderProblems(html), ...problems];
}
