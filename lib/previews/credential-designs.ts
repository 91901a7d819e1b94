// A credential's designs, in its group's order, each with digest-versioned PNG and PDF URLs. Handing
// out a URL stores its inputs, so the URL keeps answering with the same bytes after changes.
import { notFound } from "../api/errors";
import { credentialAttributeValues } from "../credentials/attributes";
import { db } from "../db";
import type { DesignDocument } from "../designs/document";
import { designPreviewVersion, previewUrl } from "./versions";

export type CredentialDesign = { id: string; name: string; previews: { format: "png" | "pdf"; url: string }[] };

export async function credentialDesigns(organization: { id: string; name: string }, credentialId: string): Promise<CredentialDesign[]> {
  const credential = await db().credential.findFirst({
    where: { id: credentialId, organizationId: organization.id },
    include: {
      group: {
        select: {
          name: true,
          designs: {
            orderBy: { position: "asc" },
            select: { design: { select: { id: true, name: true, updatedAt: true, currentRevision: { select: { id: true, document: true } } } } },
          },
        },
      },
    },
  });
  if (!credential) throw notFound("Credential");
  const values = credentialAttributeValues({ credential, group: credential.group, organization });
  const meta = {
    title: `${credential.group.name}: ${credential.recipientName}`,
    author: organization.name,
    subject: credential.group.name,
    url: values["credential.url"] ?? null,
  };
  const result: CredentialDesign[] = [];
  for (const { design } of credential.group.designs) {
    const revision = design.currentRevision;
    if (!revision) continue;
    const document = JSON.parse(revision.document) as DesignDocument;
    const digest = await designPreviewVersion({ kind: "credential", design, revision, document, credentialId: credential.id, values, meta });
    result.push({
      id: design.id,
      name: design.name,
      previews: [
        { format: "png", url: previewUrl(digest, "png") },
        { format: "pdf", url: previewUrl(digest, "pdf") },
      ],
    });
  }
  return result;
}
