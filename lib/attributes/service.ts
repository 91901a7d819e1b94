// An organization's attributes: the built-in ones, then its `custom.<tag>` ones (docs/api.md, Clients written for the hosted API).
// A custom attribute exists once it is defined (with a name) or used by a design, an email template
// or a credential. Uses are recorded as CustomAttribute rows in the same transaction as the write that
// makes them, so listing never scans credentials (an organization may have hundreds of thousands).
// What was written before this existed is recorded once per organization, lazily, on its first list.
import { invalidField } from "../core/errors";
import { db, type SqlClient } from "../db";
import { CUSTOM_ATTRIBUTE_KEY, placeholdersIn } from "../render/document";
import type { ApiAttribute, CreateAttributeInput } from "./schema";

/** The built-in attributes, in the order the hosted API lists them. */
export const BUILTIN_ATTRIBUTES: readonly Omit<ApiAttribute, "isDefault">[] = [
  { tag: "recipient.name", name: "Recipient name" },
  { tag: "recipient.email", name: "Recipient email" },
  { tag: "group.name", name: "Group name" },
  { tag: "organization.name", name: "Organization name" },
  { tag: "credential.issueDate", name: "Issue date" },
  { tag: "credential.expiryDate", name: "Expiry date" },
  { tag: "credential.id", name: "Credential ID" },
  { tag: "credential.publicId", name: "Credential public ID" },
  { tag: "credential.url", name: "Credential URL" },
];

/** The `custom.<tag>` placeholders in some template texts (designs' text elements, email templates). */
export function customTagsInTexts(texts: Iterable<string | null | undefined>): string[] {
  const tags = new Set<string>();
  for (const text of texts) if (text) for (const name of placeholdersIn(text)) if (CUSTOM_ATTRIBUTE_KEY.test(name)) tags.add(name);
  return [...tags];
}

/** The `custom.<tag>` placeholders of a design document (parsed JSON; only text elements hold them). */
export function customTagsInDocument(document: unknown): string[] {
  const elements = (document as { elements?: unknown })?.elements;
  if (!Array.isArray(elements)) return [];
  return customTagsInTexts(
    elements.map((el: unknown) => {
      const element = el as { type?: unknown; text?: unknown } | null;
      return element?.type === "text" && typeof element.text === "string" ? element.text : null;
    }),
  );
}

function nameOfUsedTag(tag: string): string {
  return tag.slice("custom.".length);
}

/**
 * Records that the organization uses these custom attributes, inside the caller's transaction (so a
 * rolled-back write records nothing). Tags already known are left alone; the sorted order keeps two
 * transactions inserting the same new tags from waiting on each other in opposite orders.
 */
export async function recordAttributeUse(tx: SqlClient, organizationId: string, tags: Iterable<string>): Promise<void> {
  const unique = [...new Set(tags)].filter((tag) => CUSTOM_ATTRIBUTE_KEY.test(tag)).sort();
  const now = new Date();
  for (const tag of unique) {
    await tx.$executeRaw`
      INSERT INTO "CustomAttribute" ("organizationId", "tag", "name", "defined", "createdAt")
      VALUES (${organizationId}, ${tag}, ${nameOfUsedTag(tag)}, ${false}, ${now})
      ON CONFLICT ("organizationId", "tag") DO NOTHING`;
  }
}

/**
 * Defines a new custom attribute. A tag the organization already has, defined or only used by a design,
 * an email template or a credential, is a duplicate and keeps its name. One conditional insert, so that
 * of two requests defining one tag at once exactly one succeeds and the other is told the tag exists
 * (the primary key decides; no error from the database reaches the client). Uses from before uses were
 * recorded are recorded first, so that such a tag is found too.
 */
export async function defineAttribute(organizationId: string, input: CreateAttributeInput): Promise<ApiAttribute> {
  await recordEarlierUse(organizationId);
  const rows = await db().$queryRaw<{ tag: string }[]>`
    INSERT INTO "CustomAttribute" ("organizationId", "tag", "name", "defined", "createdAt")
    VALUES (${organizationId}, ${input.tag}, ${input.name}, ${true}, ${new Date()})
    ON CONFLICT ("organizationId", "tag") DO NOTHING
    RETURNING "tag"`;
  if (rows.length === 0)
    throw invalidField(
      "tag",
      "your organization already has this attribute (defined, or used by a design, an email template or a credential)",
    );
  return { tag: input.tag, name: input.name, isDefault: false };
}

/** Built-in attributes first, then the organization's custom ones by tag (code-unit order on both engines). */
export async function listAttributes(organizationId: string): Promise<ApiAttribute[]> {
  await recordEarlierUse(organizationId);
  const rows = await db().customAttribute.findMany({ where: { organizationId }, select: { tag: true, name: true, defined: true } });
  const custom = rows
    .map((r) => ({ tag: r.tag, name: r.defined ? r.name : nameOfUsedTag(r.tag), isDefault: false }))
    .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return [...BUILTIN_ATTRIBUTES.map((a) => ({ ...a, isDefault: true })), ...custom];
}

const SCAN_BATCH = 2000;

/**
 * Once per organization: records the custom attributes that designs, groups and credentials written
 * before uses were recorded on write mention. Idempotent, so two first lists at once do no harm, and a
 * write meanwhile records its own tags.
 */
async function recordEarlierUse(organizationId: string): Promise<void> {
  const org = await db().organization.findUnique({ where: { id: organizationId }, select: { customAttributesIndexed: true } });
  if (!org || org.customAttributesIndexed) return;
  const tags = new Set<string>();

  const revisions = await db().design.findMany({ where: { organizationId }, select: { currentRevision: { select: { document: true } } } });
  for (const r of revisions)
    if (r.currentRevision) for (const tag of customTagsInDocument(JSON.parse(r.currentRevision.document))) tags.add(tag);

  const groups = await db().group.findMany({ where: { organizationId }, select: { emailSubject: true, emailHtml: true, emailText: true } });
  for (const tag of customTagsInTexts(groups.flatMap((g) => [g.emailSubject, g.emailHtml, g.emailText]))) tags.add(tag);

  // Keyset pages over the (organizationId, id) index, only the credentials that have custom values.
  for (let after = ""; ;) {
    const page = await db().credential.findMany({
      where: { organizationId, id: { gt: after }, NOT: { customAttributes: "{}" } },
      orderBy: { id: "asc" },
      take: SCAN_BATCH,
      select: { id: true, customAttributes: true },
    });
    for (const c of page) for (const key of Object.keys(JSON.parse(c.customAttributes) as object)) tags.add(key);
    if (page.length < SCAN_BATCH) break;
    after = page.at(-1)!.id;
  }

  await db().$transaction(async (tx) => {
    await recordAttributeUse(tx, organizationId, tags);
    await tx.organization.update({ where: { id: organizationId }, data: { customAttributesIndexed: true } });
  });
}
