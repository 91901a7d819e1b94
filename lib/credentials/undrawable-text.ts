// Before a credential is issued: which of its template's designs could not draw its text (characters
// no bundled font or emoji image has), so the dashboard can warn instead of issuing a credential whose
// recipient gets no certificate image. Nothing is written: the answer is computed from the candidate
// values the way the previews would compute it for the credential once it exists.
//
// The verdict is always the renderer's own (`unsupportedTextIn`, the check a preview makes before it
// draws). A CSV file of 10,000 rows would cost ~0.15 ms per row and design that way, so each design
// remembers the graphemes of the texts it has already accepted: the renderer decides coverage one
// grapheme at a time (`missingInChain`: an emoji image for the whole grapheme, or a face for each of its
// characters), so a text made only of graphemes the renderer accepted in the same element is accepted
// too, and only a text with a grapheme not seen yet goes to the renderer.
import { invalidField } from "../core/errors";
import { todayUtc } from "../core/dates";
import { credentialAttributeValues } from "../attribute-values/credential-values";
import { groupDefaultExpiry } from "./service";
import { selectGroupForCredential } from "./queries";
import { db } from "../db";
import type { AttributeValues } from "../render/attributes";
import type { DesignDocument } from "../render/document";
import { unsupportedTextIn } from "../render/render";
import { describeCharacter, substitutedTexts } from "../render/text-content";

/** What a credential would hold: the create body's fields (as CreateCredentialBody parses them). */
export type CandidateCredential = {
  recipientName: string;
  issueDate?: string;
  /** Left out: the template's period applies, as it would on create. */
  expiryDate?: string | null;
  customAttributes?: Record<string, string | null>;
};

/** One design that could not draw the candidate's text. */
export type UndrawableDesign = {
  designId: string;
  designName: string;
  /** The characters, as the renderer names them. */
  characters: string[];
  /** Each character as the renderer's message names it: "ሰ U+1230", or only the code point for one that would not show. */
  describedCharacters: string[];
  /** The attributes the text element draws (`recipient.name`, `custom.grade`, ...): where the characters came from. */
  attributes: string[];
  /** The renderer's own message: "no bundled font can draw these characters: ሰ U+1230, ... (from [recipient.name])". */
  message: string;
};

export type UndrawableTextChecker = (candidate: CandidateCredential) => Promise<UndrawableDesign[]>;

// Stand-ins for what a credential only gets when it is created: ASCII like the real ones, which every
// design's font draws, so they cannot change the verdict.
const CANDIDATE_ID = "cred_candidate";
const CANDIDATE_PUBLIC_ID = "00000000-0000-4000-8000-000000000000";

/** Per text element (by index): the texts it has had accepted whole, and the graphemes of those texts. */
type Accepted = { texts: Set<string>; graphemes: Set<string> };
type CheckedDesign = { id: string; name: string; document: DesignDocument; accepted: Map<number, Accepted> };

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Every text the renderer would draw is made of graphemes it has accepted in that element before. */
function knownDrawable(design: CheckedDesign, values: AttributeValues): boolean {
  for (const [index, text] of substitutedTexts(design.document, values).texts) {
    if (text === "") continue;
    const accepted = design.accepted.get(index);
    if (!accepted) return false;
    // Most texts (the title, the organization's name) are the same for every row: no segmenting.
    if (accepted.texts.has(text)) continue;
    for (const { segment } of graphemes.segment(text)) if (!accepted.graphemes.has(segment)) return false;
  }
  return true;
}

function remember(design: CheckedDesign, values: AttributeValues) {
  for (const [index, text] of substitutedTexts(design.document, values).texts) {
    let accepted = design.accepted.get(index);
    if (!accepted) design.accepted.set(index, (accepted = { texts: new Set(), graphemes: new Set() }));
    if (accepted.texts.has(text)) continue;
    accepted.texts.add(text);
    for (const { segment } of graphemes.segment(text)) accepted.graphemes.add(segment);
  }
}

/**
 * A checker for candidates of one template of the organization, reading its designs once: for a
 * whole CSV file, or one form. Designs without a saved revision draw nothing and are left out.
 */
export async function undrawableTextChecker(organization: { id: string; name: string }, groupId: string): Promise<UndrawableTextChecker> {
  const group = await selectGroupForCredential(organization.id, groupId);
  if (!group) throw invalidField("groupId", "no group with this id in your organization");
  const links = await db().groupDesign.findMany({
    where: { groupId: group.id },
    orderBy: { position: "asc" },
    select: { design: { select: { id: true, name: true, currentRevision: { select: { document: true } } } } },
  });
  const designs: CheckedDesign[] = links.flatMap(({ design }) =>
    design.currentRevision
      ? [{ id: design.id, name: design.name, document: JSON.parse(design.currentRevision.document) as DesignDocument, accepted: new Map() }]
      : [],
  );

  return async (candidate) => {
    const issueDate = candidate.issueDate ?? todayUtc();
    let expiryDate = candidate.expiryDate ?? null;
    if (candidate.expiryDate === undefined) {
      // An expiry past the last storable date is refused on create, with its own message; here it
      // only means there is no expiry date to draw.
      try {
        expiryDate = groupDefaultExpiry(group, issueDate, "issueDate");
      } catch {
        expiryDate = null;
      }
    }
    const values = credentialAttributeValues({
      credential: {
        id: CANDIDATE_ID,
        publicId: CANDIDATE_PUBLIC_ID,
        recipientName: candidate.recipientName,
        issueDate,
        expiryDate,
        customAttributes: JSON.stringify(candidate.customAttributes ?? {}),
      },
      group,
      organization,
    });
    const undrawable: UndrawableDesign[] = [];
    for (const design of designs) {
      if (knownDrawable(design, values)) continue;
      const problem = await unsupportedTextIn(design.document, values);
      if (problem === null) remember(design, values);
      else
        undrawable.push({
          designId: design.id,
          designName: design.name,
          characters: problem.characters,
          describedCharacters: problem.characters.map(describeCharacter),
          attributes: problem.attributes,
          message: problem.message,
        });
    }
    return undrawable;
  };
}

/** Which of the template's designs could not draw this one candidate's text (empty: all of them can). */
export async function undrawableText(
  organization: { id: string; name: string },
  groupId: string,
  candidate: CandidateCredential,
): Promise<UndrawableDesign[]> {
  return (await undrawableTextChecker(organization, groupId))(candidate);
}
