// Group row → API shape. The legacy certificateDesignId / badgeDesignId appear only when the designs
// were last set with the legacy shape; then they hold the first design of each type.
import { isSupportedLocale, type Locale } from "../i18n/locales";

export const groupInclude = {
  designs: { orderBy: { position: "asc" }, select: { designId: true, design: { select: { type: true } } } },
} as const;

export type GroupRow = {
  id: string;
  name: string;
  learningEventUrl: string | null;
  description: string | null;
  criteria: string | null;
  legacyDesignShape: boolean;
  expiryAmount: number | null;
  expiryUnit: string | null;
  emailSubject: string | null;
  emailHtml: string | null;
  emailText: string | null;
  language: string | null;
  expiryReminderDays: number | null;
  createdAt: Date;
  updatedAt: Date;
  designs: { designId: string; design: { type: string } }[];
};

export type ApiGroup = {
  id: string;
  name: string;
  learningEventUrl: string | null;
  description: string | null;
  criteria: string | null;
  designIds: string[];
  certificateDesignId?: string | null;
  badgeDesignId?: string | null;
  expiryPeriod: { amount: number; unit: "day" | "month" | "year" } | null;
  emailTemplate: { subject: string; html: string | null; text: string | null } | null;
  language: Locale | null;
  expiryReminderDays: number | null;
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
    description: row.description,
    criteria: row.criteria,
    designIds: row.designs.map((d) => d.designId),
    ...legacy,
    expiryPeriod:
      row.expiryAmount !== null && row.expiryUnit !== null
        ? { amount: row.expiryAmount, unit: row.expiryUnit as "day" | "month" | "year" }
        : null,
    emailTemplate: row.emailSubject !== null ? { subject: row.emailSubject, html: row.emailHtml, text: row.emailText } : null,
    // Only the API writes the column, from the list; a value it no longer supports reads as unset.
    language: isSupportedLocale(row.language) ? row.language : null,
    expiryReminderDays: row.expiryReminderDays,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
