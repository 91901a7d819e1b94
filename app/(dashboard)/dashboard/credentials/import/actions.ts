"use server";
// The import's steps as server actions. Each one resolves the member first and acts only within
// member.organization: a job id from the form is looked up in that organization, never trusted.
import { redirect } from "next/navigation";
import { invalidField, invalidFields } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { CSV_MAX_BYTES } from "@/lib/imports/csv";
import { readMapping } from "@/lib/imports/mapping";
import { checkImport, confirmImport, getImportJob, reopenImportMapping, startImport } from "@/lib/imports/service";
import { formText } from "@/app/form-text";

const text = (form: FormData, name: string) => formText(form, name).trim();
const jobPage = (id: string) => `/dashboard/credentials/import/${encodeURIComponent(id)}`;

export async function uploadImportAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const file = form.get("file");
    if (!(file instanceof File) || (file.size === 0 && file.name === "")) throw invalidField("file", "choose a CSV file");
    // Checked before reading it into memory; startImport checks the bytes again with the same limit.
    if (file.size > CSV_MAX_BYTES)
      throw invalidField("file", `The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB; split it into several files.`);
    const { id } = await startImport(member.organization, member.user.id, {
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      groupId: text(form, "groupId"),
    });
    redirect(jobPage(id));
  });
}

export async function checkImportAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "jobId");
  return runFormAction(async () => {
    const job = await getImportJob(member.organization.id, id);
    const read = readMapping(form.entries(), job.columns.length);
    if (!read.ok) throw invalidFields(read.problems);
    await checkImport(member.organization.id, id, read.mapping);
    redirect(jobPage(id));
  });
}

export async function reopenMappingAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "jobId");
  return runFormAction(async () => {
    await reopenImportMapping(member.organization.id, id);
    redirect(jobPage(id));
  });
}

export async function confirmImportAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "jobId");
  return runFormAction(async () => {
    await confirmImport(member.organization.id, id, { sendEmails: form.get("sendEmails") === "on" });
    redirect(jobPage(id));
  });
}
