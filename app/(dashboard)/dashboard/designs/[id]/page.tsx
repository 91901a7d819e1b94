import { notFound } from "next/navigation";
import { ApiError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { getDesign } from "@/lib/designs/service";
import { listAttributes } from "@/lib/attributes/service";
import { DesignEditor } from "./editor";

export const metadata = { title: "Design editor" };

export default async function DesignEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  let design;
  try {
    design = await getDesign(member.organization, id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
  const organizationAttributes = (await listAttributes(member.organization.id))
    .filter((a) => !a.isDefault)
    .map(({ tag, name }) => ({ tag, name }));
  return <DesignEditor design={design} organizationAttributes={organizationAttributes} />;
}
