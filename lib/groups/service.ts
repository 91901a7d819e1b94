// Groups (credential templates): name, ordered designs, learning event URL. References to designs
// are checked against the caller's organization and reported as validation errors on their path.
import { invalidFields, notFound, type ErrorDetail } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { db, type Tx } from "../db";
import { newId } from "../db/ids";
import { rawBoolean, rawDate, rawNullableInt } from "../db/raw-values";
import type { CreateGroupInput, UpdateGroupInput } from "./schema";

type ExtraInput = Pick<CreateGroupInput, "expiryPeriod" | "emailTemplate">;

/** Column values for the expiry setting and email template fields a request sent. */
function extraColumns(input: ExtraInput) {
  return {
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
  legacyDesignShape: unknown;
  expiryAmount: unknown;
  expiryUnit: string | null;
  emailSubject: string | null;
  emailHtml: string | null;
  emailText: string | null;
  createdAt: unknown;
  updatedAt: unknown;
  designId: string | null;
  designType: string | null;
};

// Reading one group is the hottest group query (issuers' systems poll it), so it is one join in
// plain SQL both engines accept instead of three Prisma relation queries.
async function findGroup(organizationId: string, id: string): Promise<GroupRow> {
  const rows = await db().$queryRaw<GroupJoinRow[]>`
    SELECT g."id", g."name", g."learningEventUrl", g."legacyDesignShape", g."expiryAmount", g."expiryUnit",
           g."emailSubject", g."emailHtml", g."emailText", g."createdAt", g."updatedAt",
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
    legacyDesignShape: rawBoolean(first.legacyDesignShape),
    expiryAmount: rawNullableInt(first.expiryAmount),
    expiryUnit: first.expiryUnit,
    emailSubject: first.emailSubject,
    emailHtml: first.emailHtml,
    emailText: first.emailText,
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
  });
  return getGroup(organizationId, id);
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
  });
  return getGroup(organizationId, id);
}
