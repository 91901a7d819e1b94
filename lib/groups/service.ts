// Groups (credential templates): name, ordered designs, learning event URL. References to designs
// are checked against the caller's organization and reported as validation errors on their path.
import { ApiError, invalidFields, notFound, type ErrorDetail } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { db, type DbOrTx, type Tx } from "../db";
import { newId } from "../db/ids";
import { isForeignKeyViolation } from "../db/constraint-errors";
import { rawBoolean, rawDate, rawNullableInt } from "../db/raw-values";
import { customTagsInTexts, recordAttributeUse } from "../attributes/service";
import type { CreateGroupInput, UpdateGroupInput } from "./schema";
import { recordWebhookEvents } from "../webhooks/outbox";
import { rescheduleGroupReminders } from "../expiry/schedule";

type ExtraInput = Pick<CreateGroupInput, "description" | "criteria" | "expiryPeriod" | "emailTemplate" | "language" | "expiryReminderDays">;

/** Column values for the expiry setting and email template fields a request sent. */
function extraColumns(input: ExtraInput) {
  return {
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.criteria !== undefined ? { criteria: input.criteria } : {}),
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(input.expiryReminderDays !== undefined ? { expiryReminderDays: input.expiryReminderDays } : {}),
    ...(input.expiryPeriod !== undefined
      ? { expiryAmount: input.expiryPeriod?.amount ?? null, expiryUnit: input.expiryPeriod?.unit ?? null }
      : {}),
    ...(input.emailTemplate !== undefined
      ? {
          emailSubject: input.emailTemplate?.subject ?? null,
          emailHtml: input.emailTemplate?.html ?? null,
          emailText: input.emailTemplate?.text ?? null,
        }
      : {}),
  };
}
import { readVia } from "../db/direct-read";
import { groupInclude, serializeGroup, type ApiGroup, type GroupRow } from "./serialize";

type DesignChoice = { designIds: string[]; legacy: boolean };

const NOT_IN_ORGANIZATION = "no design with this id in your organization";

async function designTypes(organizationId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await db().design.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, type: true } });
  return new Map(rows.map((r) => [r.id, r.type]));
}

/** The design list a create or update asks for, or undefined when it does not touch designs. */
async function chooseDesigns(
  organizationId: string,
  input: { designIds?: string[]; certificateDesignId?: string; badgeDesignId?: string },
  current: GroupRow["designs"] = [],
): Promise<DesignChoice | undefined> {
  const problems: ErrorDetail[] = [];
  if (input.designIds) {
    const types = await designTypes(organizationId, input.designIds);
    input.designIds.forEach((id, i) => {
      if (!types.has(id)) problems.push({ path: `designIds[${i}]`, message: NOT_IN_ORGANIZATION });
    });
    if (problems.length) throw invalidFields(problems);
    return { designIds: input.designIds, legacy: false };
  }
  if (input.certificateDesignId === undefined && input.badgeDesignId === undefined) return undefined;

  // Legacy shape: one certificate slot and one badge slot. A slot not sent keeps the group's current
  // first design of that type.
  const asked = [input.certificateDesignId, input.badgeDesignId].filter((x): x is string => x !== undefined);
  const types = await designTypes(organizationId, asked);
  const slots = { certificate: input.certificateDesignId, badge: input.badgeDesignId };
  for (const [type, key] of [
    ["certificate", "certificateDesignId"],
    ["badge", "badgeDesignId"],
  ] as const) {
    const id = slots[type];
    if (id === undefined) {
      slots[type] = current.find((d) => d.design.type === type)?.designId;
      continue;
    }
    const actual = types.get(id);
    if (!actual) problems.push({ path: key, message: NOT_IN_ORGANIZATION });
    else if (actual !== type) problems.push({ path: key, message: `must name a ${type} design; this one is a ${actual}` });
  }
  if (problems.length) throw invalidFields(problems);
  return { designIds: [slots.certificate, slots.badge].filter((x): x is string => x !== undefined), legacy: true };
}

async function writeDesigns(tx: Tx, groupId: string, designIds: string[]) {
  await tx.groupDesign.deleteMany({ where: { groupId } });
  await tx.groupDesign.createMany({ data: designIds.map((designId, position) => ({ groupId, designId, position })) });
}

type GroupJoinRow = {
  id: string;
  name: string;
  learningEventUrl: string | null;
  description: string | null;
  criteria: string | null;
  legacyDesignShape: unknown;
  expiryAmount: unknown;
  expiryUnit: string | null;
  emailSubject: string | null;
  emailHtml: string | null;
  emailText: string | null;
  language: string | null;
  expiryReminderDays: unknown;
  createdAt: unknown;
  updatedAt: unknown;
  designId: string | null;
  designType: string | null;
};

// Reading one group is the hottest group query (issuers' systems poll it), so it is one join in
// plain SQL both engines accept instead of three Prisma relation queries, read past the Prisma client
// outside a transaction (lib/db/direct-read.ts).
async function findGroup(organizationId: string, id: string, client?: DbOrTx): Promise<GroupRow> {
  const rows = await readVia(client)<GroupJoinRow>`
    SELECT g."id", g."name", g."learningEventUrl", g."description", g."criteria", g."legacyDesignShape", g."expiryAmount", g."expiryUnit",
           g."emailSubject", g."emailHtml", g."emailText", g."language", g."expiryReminderDays", g."createdAt", g."updatedAt",
           gd."designId", d."type" AS "designType"
    FROM "Group" g
    LEFT JOIN "GroupDesign" gd ON gd."groupId" = g."id"
    LEFT JOIN "Design" d ON d."id" = gd."designId"
    WHERE g."id" = ${id} AND g."organizationId" = ${organizationId}
    ORDER BY gd."position"`;
  const first = rows[0];
  if (!first) throw notFound("Group");
  return {
    id: first.id,
    name: first.name,
    learningEventUrl: first.learningEventUrl,
    description: first.description,
    criteria: first.criteria,
    legacyDesignShape: rawBoolean(first.legacyDesignShape),
    expiryAmount: rawNullableInt(first.expiryAmount),
    expiryUnit: first.expiryUnit,
    emailSubject: first.emailSubject,
    emailHtml: first.emailHtml,
    emailText: first.emailText,
    language: first.language,
    expiryReminderDays: rawNullableInt(first.expiryReminderDays),
    createdAt: rawDate(first.createdAt),
    updatedAt: rawDate(first.updatedAt),
    designs: rows.flatMap((r) => (r.designId && r.designType ? [{ designId: r.designId, design: { type: r.designType } }] : [])),
  };
}

export async function getGroup(organizationId: string, id: string): Promise<ApiGroup> {
  return serializeGroup(await findGroup(organizationId, id));
}

export async function listGroups(organizationId: string, options: { cursor?: string; limit: number }): Promise<Page<ApiGroup>> {
  return newestFirstPage({
    scope: "groups",
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) => db().group.findMany({ where: { organizationId, ...where }, orderBy, take, include: groupInclude }),
    serialize: serializeGroup,
  });
}

export async function createGroup(organizationId: string, input: CreateGroupInput): Promise<ApiGroup> {
  const choice = await chooseDesigns(organizationId, input);
  if (!choice) throw new Error("CreateGroupBody guarantees a design list");
  const id = newId("grp");
  await db().$transaction(async (tx) => {
    await tx.group.create({
      data: {
        id,
        organizationId,
        name: input.name,
        learningEventUrl: input.learningEventUrl ?? null,
        legacyDesignShape: choice.legacy,
        ...extraColumns(input),
      },
    });
    await writeDesigns(tx, id, choice.designIds);
    await recordTemplateAttributes(tx, organizationId, input);
    await recordWebhookEvents(tx, organizationId, [
      { type: "group.created", data: async () => serializeGroup(await findGroup(organizationId, id, tx)) },
    ]);
  });
  return getGroup(organizationId, id);
}

/** The custom attributes an email template sent in a create or update uses (lib/attributes). */
async function recordTemplateAttributes(tx: Tx, organizationId: string, input: ExtraInput): Promise<void> {
  const t = input.emailTemplate;
  if (t) await recordAttributeUse(tx, organizationId, customTagsInTexts([t.subject, t.html, t.text]));
}

export async function updateGroup(organizationId: string, id: string, input: UpdateGroupInput): Promise<ApiGroup> {
  const current = await findGroup(organizationId, id);
  const choice = await chooseDesigns(organizationId, input, current.designs);
  const fields = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.learningEventUrl !== undefined ? { learningEventUrl: input.learningEventUrl } : {}),
    ...(choice ? { legacyDesignShape: choice.legacy } : {}),
    ...extraColumns(input),
  };
  if (Object.keys(fields).length === 0) return serializeGroup(current);
  await db().$transaction(async (tx) => {
    // Updating the group row first takes its lock, so concurrent updates replace the design list one
    // after the other instead of interleaving.
    await tx.group.update({ where: { id }, data: fields });
    if (choice) await writeDesigns(tx, id, choice.designIds);
    // A reminder setting sent moves, cancels or writes the reminders of the group's credentials. Always
    // when sent, not only when it differs from the value read before the transaction: a concurrent
    // update may have changed it since, and this one, holding the group's row now, has the last word.
    if (input.expiryReminderDays !== undefined) await rescheduleGroupReminders(tx, id, input.expiryReminderDays);
    await recordTemplateAttributes(tx, organizationId, input);
    await recordWebhookEvents(tx, organizationId, [
      { type: "group.updated", data: async () => serializeGroup(await findGroup(organizationId, id, tx)) },
    ]);
  });
  return getGroup(organizationId, id);
}

type GroupUse = { credentials: number; unfinishedImports: number };

async function groupUse(client: DbOrTx, groupId: string): Promise<GroupUse> {
  const [credentials, unfinishedImports] = await Promise.all([
    client.credential.count({ where: { groupId } }),
    client.importJob.count({ where: { groupId, status: { notIn: FINISHED_IMPORT } } }),
  ]);
  return { credentials, unfinishedImports };
}

/** Import jobs that will write nothing more: they go with the group (their rows made no credential). */
const FINISHED_IMPORT = ["done", "failed"];

function groupInUse(use: GroupUse): ApiError {
  if (use.credentials === 0 && use.unfinishedImports > 0) {
    return new ApiError("conflict", "A CSV import into this group is not finished; delete the group once it is.");
  }
  const uses = use.credentials === 1 ? "1 credential uses" : `${use.credentials} credentials use`;
  return new ApiError("conflict", `${uses} this group; a group can be deleted only while no credential uses it.`);
}

/**
 * Deletes a group no credential uses; its design links and finished CSV imports go with it. The
 * delete is conditional and credentials' foreign key restricts it, so a credential created meanwhile
 * either makes this a conflict or, if the delete came first, is refused: none points at no group.
 */
export async function deleteGroup(organizationId: string, id: string): Promise<void> {
  const group = await db().group.findFirst({ where: { id, organizationId }, select: { id: true } });
  if (!group) throw notFound("Group");
  try {
    await db().$transaction(async (tx) => {
      const use = await groupUse(tx, id);
      if (use.credentials > 0 || use.unfinishedImports > 0) throw groupInUse(use);
      await tx.importJob.deleteMany({ where: { groupId: id, status: { in: FINISHED_IMPORT } } });
      // Written before the delete so that its data is the group as it was; a refused delete rolls it back.
      await recordWebhookEvents(tx, organizationId, [
        { type: "group.deleted", data: async () => serializeGroup(await findGroup(organizationId, id, tx)) },
      ]);
      const deleted = await tx.$executeRaw`
        DELETE FROM "Group" WHERE "id" = ${id} AND "organizationId" = ${organizationId}
          AND NOT EXISTS (SELECT 1 FROM "Credential" c WHERE c."groupId" = ${id})`;
      if (deleted === 1) return;
      const now = await groupUse(tx, id);
      throw now.credentials > 0 ? groupInUse(now) : notFound("Group"); // or deleted by a concurrent request
    });
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    throw groupInUse(await groupUse(db(), id));
  }
}
