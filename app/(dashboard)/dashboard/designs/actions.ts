"use server";
// The design gallery's and editor's server actions. Each one resolves the member from the session
// and goes through the designs service with the API's own request schemas, so a design saved here
// obeys exactly the rules (and messages) of POST/PATCH /v1/designs.
import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { ApiError, invalidField, invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { MAX_ASSET_BYTES } from "@/lib/designs/assets";
import { renderDraftDesign, type TextOverflow } from "@/lib/designs/draft-preview";
import { CreateDesignBody, UpdateDesignBody } from "@/lib/designs/schema";
import { createDesign, duplicateDesign, getDesign, updateDesign } from "@/lib/designs/service";
import { formText } from "@/app/form-text";

const text = (form: FormData, name: string) => formText(form, name).trim();

export type EditorAsset = { name: string; mimeType: string; width: number; height: number; byteSize: number };

/**
 * An image change saves a revision, so it moves the design's `updatedAt`: the editor moves its base
 * along when `previousUpdatedAt` is the version it was based on (nobody else saved in between).
 */
export type ImageChange = { assets: EditorAsset[]; updatedAt: string; previousUpdatedAt: string };

/** A new design from the default layout of a kind ("blank:certificate") or as a copy of a design (its id). */
export async function createDesignAction(_previous: FormState<{ id: string }>, form: FormData): Promise<FormState<{ id: string }>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const from = text(form, "from") || "blank:certificate";
  const state = await runFormAction(async () => {
    const blank = from.startsWith("blank:") ? from.slice("blank:".length) : null;
    const parsed = safeParseWithDetails(CreateDesignBody, { name: text(form, "name"), type: blank ?? "certificate" });
    if (!parsed.ok) throw invalidFields(parsed.details.map((d) => (d.path === "type" ? { ...d, path: "from" } : d)));
    const design = blank
      ? await createDesign(member.organization, parsed.data)
      : await duplicateDesign(member.organization, from, parsed.data.name);
    revalidatePath("/dashboard/designs");
    return { id: design.id };
  });
  if (state.status === "ok") redirect(`/dashboard/designs/${state.result.id}`);
  return state;
}

/** A draft's preview: the picture, the renderer's warnings, the texts that overflow, the values shown. */
export type DraftPreviewResult = {
  png: string;
  warnings: string[];
  overflows: TextOverflow[];
  sample: { recipientName: string; groupName: string };
};

/** The unsaved document as a PNG (a data URI), or the problems that keep it from being saved. */
export async function previewDraftAction(
  designId: string,
  document: unknown,
  recipientName: string,
): Promise<FormState<DraftPreviewResult>> {
  const member = await requireMember();
  return runFormAction(async () => {
    const preview = await renderDraftDesign(member.organization, String(designId), document, {
      recipientName: String(recipientName ?? ""),
    });
    return {
      png: `data:image/png;base64,${Buffer.from(preview.png).toString("base64")}`,
      warnings: preview.warnings,
      overflows: preview.overflows,
      sample: preview.sample,
    };
  });
}

/**
 * Saves the editor's name and document as a new revision. `baseUpdatedAt` is the version the editor
 * started from: when someone saved since, the save is refused (`conflict`) unless `overwrite` is set.
 */
export async function saveDesignAction(
  designId: string,
  changes: { name: unknown; document: unknown; baseUpdatedAt: string; overwrite?: boolean },
): Promise<FormState<{ updatedAt: string; previewUrl: string }> & { conflict?: boolean }> {
  if (typeof changes !== "object" || changes === null) return refusedArguments();
  const member = await requireMember();
  let conflict = false;
  const state = await runFormAction(async () => {
    const parsed = safeParseWithDetails(UpdateDesignBody, { name: changes.name, document: changes.document });
    if (!parsed.ok) throw invalidFields(parsed.details);
    try {
      const design = await updateDesign(
        member.organization,
        String(designId),
        parsed.data,
        changes.overwrite ? {} : { expectedUpdatedAt: String(changes.baseUpdatedAt) },
      );
      revalidatePath("/dashboard/designs");
      return { updatedAt: design.updatedAt, previewUrl: design.previewUrl };
    } catch (error) {
      conflict = error instanceof ApiError && error.code === "conflict";
      throw error;
    }
  }, "Saved.");
  return conflict ? { ...state, conflict } : state;
}

/** A short, unique asset name from the uploaded file's name ("Company Logo.png" → "company-logo"). */
function assetNameFor(fileName: string, taken: ReadonlySet<string>): string {
  const base =
    fileName
      .replace(/\.[^.]*$/, "")
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^[-_]+|[-_]+$/g, "")
      .slice(0, 56) || "image";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

/**
 * Adds an uploaded PNG or JPEG to the design's images. It is saved at once (as the API would with
 * `assets`), so the editor can place it and preview it before the layout itself is saved.
 */
export async function uploadDesignImageAction(
  _previous: FormState<ImageChange & { name: string }>,
  form: FormData,
): Promise<FormState<ImageChange & { name: string }>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const id = text(form, "designId");
    const file = form.get("image");
    if (!(file instanceof File) || file.size === 0) throw invalidField("image", "choose a PNG or JPEG file");
    if (file.size > MAX_ASSET_BYTES) throw invalidField("image", `is ${file.size} bytes; the limit is ${MAX_ASSET_BYTES} bytes`);
    const current = await getDesign(member.organization, id);
    const name = assetNameFor(file.name, new Set(current.assets.map((a) => a.name)));
    const bytes = Buffer.from(await file.arrayBuffer());
    // The bytes decide what the image is (the designs service checks them); the type only labels the URI.
    const mime = bytes[0] === 0xff && bytes[1] === 0xd8 ? "image/jpeg" : "image/png";
    const parsed = safeParseWithDetails(UpdateDesignBody, { assets: { [name]: `data:${mime};base64,${bytes.toString("base64")}` } });
    if (!parsed.ok) throw invalidField("image", parsed.details[0]?.message ?? "is not a valid image");
    try {
      const design = await updateDesign(member.organization, id, parsed.data, { expectedUpdatedAt: current.updatedAt });
      revalidatePath("/dashboard/designs");
      return { name, assets: design.assets, updatedAt: design.updatedAt, previousUpdatedAt: current.updatedAt };
    } catch (error) {
      // "assets.<name>: is not a PNG or JPEG image" belongs next to the file field.
      const detail = (error as { details?: { path: string; message: string }[] }).details?.find((d) => d.path.startsWith("assets."));
      if (detail) throw invalidField("image", detail.message);
      throw error;
    }
  }, "Image uploaded.");
}

/** Removes one image; refused while the saved layout still uses it. */
export async function removeDesignImageAction(designId: string, name: string): Promise<FormState<ImageChange>> {
  const member = await requireMember();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(UpdateDesignBody, { assets: { [String(name)]: null } });
    if (!parsed.ok) throw invalidFields(parsed.details);
    const current = await getDesign(member.organization, String(designId));
    try {
      const design = await updateDesign(member.organization, current.id, parsed.data, { expectedUpdatedAt: current.updatedAt });
      revalidatePath("/dashboard/designs");
      return { assets: design.assets, updatedAt: design.updatedAt, previousUpdatedAt: current.updatedAt };
    } catch (error) {
      // The API says the saved document would name a missing image; here, that means it is in use.
      const inUse = error instanceof ApiError && error.details?.some((d) => d.path.startsWith("document."));
      if (inUse) throw invalidField("image", `"${name}" is used by the saved layout: take it out of the layout and save first`);
      throw error;
    }
  }, "Image removed.");
}
