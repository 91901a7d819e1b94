// Bulk import of credentials from a CSV file, up to the point where the runner takes over:
//   upload (the file is read and kept, columns guessed) → check (every row through the API's schema,
//   staged as ImportRows; nothing is written to credentials) → confirm (queued for the runner).
// Every function takes the caller's organization and finds the job within it, so a job id of another
// organization is "not found", whoever asks.
import { ApiError, invalidField, notFound } from "../core/errors";
import { db } from "../db";
import { newId } from "../db/ids";
import { rawNullableInt } from "../db/raw-values";
import type { OrganizationRow } from "../organizations/service";
import { CsvError, decodeCsvBytes, parseCsv, readCsvUpload, type CsvTable } from "./csv";
import { guessMapping, type ColumnMapping, type MappingTarget } from "./mapping";
import { nudgeImportRunner } from "./nudge";
import { checkRecords, type RowProblem } from "./validation";

export type ImportStatus = "uploaded" | "validated" | "queued" | "running" | "done" | "failed";

export type ImportJobView = {
  id: string;
  fileName: string;
  groupId: string;
  groupName: string;
  status: ImportStatus;
  separator: string;
  columns: string[];
  mapping: ColumnMapping;
  sendEmails: boolean;
  totalRows: number;
  validRows: number;
  processedRows: number;
  issuedRows: number;
  failedRows: number;
  error: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
  finishedAt: Date | null;
};

const jobSelect = {
  id: true,
  fileName: true,
  groupId: true,
  status: true,
  separator: true,
  columns: true,
  mapping: true,
  sendEmails: true,
  totalRows: true,
  validRows: true,
  processedRows: true,
  issuedRows: true,
  failedRows: true,
  error: true,
  createdAt: true,
  confirmedAt: true,
  finishedAt: true,
  group: { select: { name: true } },
} as const;

type JobRow = Omit<ImportJobView, "status" | "columns" | "mapping" | "groupName"> & {
  status: string;
  columns: string;
  mapping: string;
  group: { name: string };
};

function view(row: JobRow): ImportJobView {
  const { group, columns, mapping, status, ...rest } = row;
  return {
    ...rest,
    status: status as ImportStatus,
    groupName: group.name,
    columns: JSON.parse(columns) as string[],
    mapping: JSON.parse(mapping) as ColumnMapping,
  };
}

export async function getImportJob(organizationId: string, id: string): Promise<ImportJobView> {
  const row = await db().importJob.findFirst({ where: { id, organizationId }, select: jobSelect });
  if (!row) throw notFound("Import");
  return view(row);
}

export async function listImportJobs(organizationId: string, limit = 10): Promise<ImportJobView[]> {
  const rows = await db().importJob.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: jobSelect,
  });
  return rows.map(view);
}

/** Reads the uploaded file and keeps it on a new job with a first guess at the column mapping. */
export async function startImport(
  organization: OrganizationRow,
  userId: string | null,
  upload: { fileName: string; bytes: Uint8Array; groupId: string },
): Promise<{ id: string }> {
  const group = await db().group.findFirst({ where: { id: upload.groupId, organizationId: organization.id }, select: { id: true } });
  if (!group) throw invalidField("groupId", "choose one of your credential templates");
  let table: CsvTable;
  try {
    table = readCsvUpload(upload.bytes);
  } catch (error) {
    if (error instanceof CsvError) throw invalidField("file", error.message);
    throw error;
  }
  const { mapping } = guessMapping(table.header, await templateCustomKeys(group.id));
  const id = newId("imp");
  await db().importJob.create({
    data: {
      id,
      organizationId: organization.id,
      groupId: group.id,
      createdByUserId: userId,
      fileName: upload.fileName.slice(0, 200) || "upload.csv",
      status: "uploaded",
      source: decodeCsvBytes(upload.bytes), // cannot fail: readCsvUpload decoded it
      separator: table.separator,
      columns: JSON.stringify(table.header),
      mapping: JSON.stringify(mapping),
      totalRows: table.records.length,
    },
  });
  return { id };
}

/** The custom attributes a template's designs and email show ([custom.grade]): fields worth offering. */
async function templateCustomKeys(groupId: string): Promise<string[]> {
  const group = await db().group.findUniqueOrThrow({
    where: { id: groupId },
    select: {
      emailSubject: true,
      emailHtml: true,
      emailText: true,
      designs: { orderBy: { position: "asc" }, select: { design: { select: { currentRevision: { select: { document: true } } } } } },
    },
  });
  const texts = [group.emailSubject, group.emailHtml, group.emailText, ...group.designs.map((d) => d.design.currentRevision?.document)];
  const keys = new Set<string>();
  for (const text of texts) for (const m of (text ?? "").matchAll(/\[(custom\.[A-Za-z0-9_-]{1,64})\]/g)) keys.add(m[1]!);
  return [...keys];
}

async function jobSource(organizationId: string, id: string): Promise<{ table: CsvTable; groupId: string; status: string }> {
  const row = await db().importJob.findFirst({ where: { id, organizationId }, select: { source: true, groupId: true, status: true } });
  if (!row) throw notFound("Import");
  if (row.status !== "uploaded" && row.status !== "validated") {
    throw new ApiError("conflict", "This import has been confirmed; its columns can no longer be changed.");
  }
  // The file was read successfully when it was uploaded; reading it again gives the same table.
  return { table: parseCsv(row.source), groupId: row.groupId, status: row.status };
}

export type MappingView = { header: string[]; preview: string[][]; targets: MappingTarget[]; mapping: ColumnMapping; separator: string };

/** What the mapping step shows: the columns, the first rows, the fields and the current mapping. */
export async function importMappingView(organizationId: string, id: string, previewRows = 5): Promise<MappingView> {
  const job = await getImportJob(organizationId, id);
  const { table, groupId } = await jobSource(organizationId, id);
  const guessed = guessMapping(table.header, await templateCustomKeys(groupId));
  // Fields of the saved mapping that the guess does not offer (none today) stay visible.
  const targets = [...guessed.targets];
  for (const key of Object.keys(job.mapping)) {
    if (!targets.some((t) => t.key === key)) targets.push({ key: key as MappingTarget["key"], label: key, required: false });
  }
  return {
    header: table.header,
    preview: table.records.slice(0, previewRows).map((r) => r.fields),
    targets,
    mapping: job.mapping,
    separator: table.separator,
  };
}

const INSERT_CHUNK = 500;

/**
 * Checks every row with the chosen mapping and stages the outcome: valid rows as `pending` with the
 * API body they become, the others as `invalid` with their problems. Nothing else is written; checking
 * again (a changed mapping) replaces the staged rows.
 */
export async function checkImport(
  organizationId: string,
  id: string,
  mapping: ColumnMapping,
): Promise<{ validRows: number; invalidRows: number }> {
  const { table, groupId } = await jobSource(organizationId, id);
  const checked = checkRecords(table.records, table.header, mapping, groupId);
  const rows = checked.map((row) => ({
    id: newId("imr"),
    jobId: id,
    line: row.line,
    input: JSON.stringify(row.input),
    status: row.valid ? "pending" : "invalid",
    problems: row.valid ? null : JSON.stringify(row.problems),
  }));
  const validRows = checked.filter((r) => r.valid).length;
  await db().$transaction(async (tx) => {
    // The status condition makes a check that races a confirm lose instead of changing a queued job.
    const { count } = await tx.importJob.updateMany({
      where: { id, organizationId, status: { in: ["uploaded", "validated"] } },
      data: { status: "validated", mapping: JSON.stringify(mapping), totalRows: rows.length, validRows },
    });
    if (count !== 1) throw new ApiError("conflict", "This import has been confirmed; its columns can no longer be changed.");
    await tx.importRow.deleteMany({ where: { jobId: id } });
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await tx.importRow.createMany({ data: rows.slice(i, i + INSERT_CHUNK) });
  });
  return { validRows, invalidRows: rows.length - validRows };
}

/** Back from the report to the mapping: the staged rows are dropped. */
export async function reopenImportMapping(organizationId: string, id: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.importJob.updateMany({
      where: { id, organizationId, status: "validated" },
      data: { status: "uploaded", validRows: 0 },
    });
    if (count !== 1) {
      if (!(await tx.importJob.findFirst({ where: { id, organizationId }, select: { id: true } }))) throw notFound("Import");
      throw new ApiError("conflict", "Only an import that has been checked and not confirmed can go back to its columns.");
    }
    await tx.importRow.deleteMany({ where: { jobId: id } });
  });
}

/** Hands a checked import to the runner. The file itself is no longer needed: the rows hold everything. */
export async function confirmImport(organizationId: string, id: string, options: { sendEmails: boolean }): Promise<void> {
  const job = await getImportJob(organizationId, id);
  if (job.status !== "validated") {
    throw new ApiError(
      "conflict",
      job.status === "uploaded" ? "Check the rows before confirming the import." : "This import has already been confirmed.",
    );
  }
  if (job.validRows === 0) throw new ApiError("conflict", "No row of this file is valid, so there is nothing to issue.");
  const { count } = await db().importJob.updateMany({
    where: { id, organizationId, status: "validated" },
    data: { status: "queued", sendEmails: options.sendEmails, source: "", confirmedAt: new Date() },
  });
  if (count !== 1) throw new ApiError("conflict", "This import has already been confirmed.");
  nudgeImportRunner();
}

export type ImportProgress = {
  status: ImportStatus;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  processedRows: number;
  issuedRows: number;
  failedRows: number;
  sendEmails: boolean;
  /** Credentials of this import whose email was delivered / is still waiting / was given up on. */
  emails: { sent: number; queued: number; failed: number };
  error: string | null;
  finishedAt: string | null;
};

/** The numbers the progress page polls. Emails are counted per credential of the job. */
export async function importProgress(organizationId: string, id: string): Promise<ImportProgress> {
  const job = await getImportJob(organizationId, id);
  const emails = { sent: 0, queued: 0, failed: 0 };
  if (job.sendEmails && job.issuedRows > 0) {
    const counts = await db().$queryRaw<{ status: string; n: unknown }[]>`
      SELECT o."status" AS "status", COUNT(DISTINCT o."credentialId") AS "n"
      FROM "ImportRow" r JOIN "EmailOutbox" o ON o."credentialId" = r."credentialId"
      WHERE r."jobId" = ${id} AND r."status" = 'done'
      GROUP BY o."status"`;
    for (const c of counts) if (c.status in emails) emails[c.status as keyof typeof emails] = rawNullableInt(c.n) ?? 0;
  }
  return {
    status: job.status,
    totalRows: job.totalRows,
    validRows: job.validRows,
    invalidRows: job.totalRows - job.validRows,
    processedRows: job.processedRows,
    issuedRows: job.issuedRows,
    failedRows: job.failedRows,
    sendEmails: job.sendEmails,
    emails,
    error: job.error,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

export type InvalidImportRow = { line: number; problems: RowProblem[] };
export type FailedImportRow = { line: number; name: string; error: string };

/** Rows refused by the check, in file order; the report shows them before anything is written. */
export async function invalidImportRows(organizationId: string, id: string, limit = 1000): Promise<InvalidImportRow[]> {
  await getImportJob(organizationId, id);
  const rows = await db().importRow.findMany({
    where: { jobId: id, status: "invalid" },
    orderBy: { line: "asc" },
    take: limit,
    select: { line: true, problems: true },
  });
  return rows.map((r) => ({ line: r.line, problems: JSON.parse(r.problems ?? "[]") as RowProblem[] }));
}

/** Valid rows the service refused when they were issued (e.g. the free plan's quota), in file order. */
export async function failedImportRows(organizationId: string, id: string, limit = 1000): Promise<FailedImportRow[]> {
  await getImportJob(organizationId, id);
  const rows = await db().importRow.findMany({
    where: { jobId: id, status: "failed" },
    orderBy: { line: "asc" },
    take: limit,
    select: { line: true, input: true, error: true },
  });
  return rows.map((r) => ({
    line: r.line,
    name: (JSON.parse(r.input) as { recipient?: { name?: string } }).recipient?.name ?? "",
    error: r.error ?? "",
  }));
}
