// Group row → API shape. The legacy certificateDesignId / badgeDesignId appear only when the designs
// were last set with the legacy shape; then they hold the first design of each type.
export const groupInclude = {
  designs: { orderBy: { position: "asc" }, select: { designId: true, design: { select: { type: true } } } },
} as const;

export type GroupRow = {
  id: string;
  name: string;
  learningEventUrl: string | null;
  legacyDesignShape: boolean;
  createdAt: Date;
  updatedAt: Date;
  designs: { designId: string; design: { type: string } }[];
};

export type ApiGroup = {
  id: string;
  name: string;
  learningEventUrl: string | null;
  designIds: string[];
  certificateDesignId?: string | null;
  badgeDesignId?: string | null;
  createdAt: string;
  updatedAt: string;
};

export function serializeGroup(row: GroupRow): ApiGroup {
  const legacy = row.legacyDesignShape
    ? {
        certificateDesignId: row.designs.find((d) => d.design.type === "certificate")?.designId ?? null,
        badgeDesignId: row.designs.find((d) => d.design.type === "badge")?.designId ?? null,
      }
    : {};
  return {
    id: row.id,
    name: row.name,
    learningEventUrl: row.learningEventUrl,
    designIds: row.designs.map((d) => d.designId),
    ...legacy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
