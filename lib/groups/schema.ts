// Request shapes for groups (credential templates), docs/api.md, Groups and designs. Two ways to name designs:
// `designIds` (ordered, 1..50) or the deprecated `certificateDesignId` / `badgeDesignId`; never both.
import { z } from "zod";
import { multiLineText, singleLineText } from "../core/text";
import { SUPPORTED_LOCALES } from "../i18n/locales";
import { emailMarkupProblems, htmlLinkProblems, placeholderProblems } from "../render/email-markup";

export const MAX_DESIGNS_PER_GROUP = 50;

export const groupName = singleLineText({ trim: true }).min(1, "must not be empty").max(200, "must be at most 200 characters");

/**
 * An absolute http(s) URL, stored in the form a browser would use (scheme and host lower-cased,
 * international hosts in punycode, spaces and other unsafe characters percent-encoded), so that what
 * the wallet links to is exactly what was checked. A bare origin keeps the form it was given in
 * ("https://example.com", not "https://example.com/"). User names and passwords in the URL are refused:
 * they would be shown to every guest.
 */
export const learningEventUrl = singleLineText()
  .max(2000, "must be at most 2000 characters")
  .transform((value, ctx) => {
    const url = URL.parse(value);
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
      ctx.addIssue({ code: "custom", message: "must be an absolute http(s) URL" });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "must not contain a user name or password" });
      return z.NEVER;
    }
    return url.pathname === "/" && !/^[a-z]+:\/\/[^/?#]*\/[?#]?/i.test(value) ? url.href.replace(/\/(?=[?#]|$)/, "") : url.href;
  });

/**
 * What the group's credentials stand for, shown on the wallet and signed into each credential as its
 * Open Badges achievement's description; null or absent: a default naming the group and organization.
 */
export const groupDescription = multiLineText({ trim: true })
  .min(1, "must not be empty; send null for the default")
  .max(2000, "must be at most 2000 characters");

/** How a credential of the group is earned (the achievement's criteria); null or absent: a default. */
export const groupCriteria = multiLineText({ trim: true })
  .min(1, "must not be empty; send null for the default")
  .max(5000, "must be at most 5000 characters");

/** Credentials of the group expire this long after their issue date, unless a credential says otherwise. */
export const expiryPeriod = z.strictObject({
  amount: z.number().int("must be a whole number").min(1).max(1000),
  unit: z.enum(["day", "month", "year"]),
});

/** Email each credential's recipient this many days before its expiry date; null or absent: no reminder. */
export const expiryReminderDays = z
  .number({ error: "must be a whole number of days from 1 to 365, or null for no reminder" })
  .int("must be a whole number of days")
  .min(1, "must be at least 1 day")
  .max(365, "must be at most 365 days");

/** Each problem a check finds, as one issue on the field it was found in. */
const noProblems = (check: (value: string) => string[], maxLength: number) => (value: string, ctx: z.RefinementCtx) => {
  // Zod runs refinements even when the length check failed: text over the limit is refused for that
  // alone, and never read further (a megabyte sent to be refused should cost nothing).
  if (value.length > maxLength) return;
  for (const message of check(value)) ctx.addIssue({ code: "custom", message });
};

export const MAX_EMAIL_TEXT = 20_000;

const EMAIL_SUBJECT_DESCRIPTION =
  "The subject, one line of up to 300 characters; `[attribute]` placeholders (the built-in ones designs use, or `[custom.<tag>]`) are filled in as text. An unknown placeholder is a `validation_error`.";
const EMAIL_TEXT_DESCRIPTION =
  "The email's words (up to 20,000 characters), written inside the organization's branded frame (logo, brand colour, certificate image, the button to the wallet, the small print) and as the plain-text part. Formatting: a blank line starts a paragraph, a line break is kept, `**bold**`, links as `[label](https://...)` (http, https or mailto only; `[label]([credential.url])` links to the recipient's wallet page) and `[attribute]` placeholders. Everything else, HTML included, is shown as text. A refused link, an unknown placeholder or an unclosed `**` is a `validation_error` on this field naming the line; nothing is saved. null: the built-in words.";
const EMAIL_HTML_DESCRIPTION =
  "Optional: the issuer's whole HTML body, sent as written instead of the branded frame (then `text` is the plain-text part as written). Every `href`/`src` must be an http, https or mailto address or start with a placeholder. Most templates leave it null and write `text`.";

/**
 * The email sent with a credential. `text` is the issuer's words in a small formatting set
 * (lib/render/email-markup: paragraphs, **bold**, [label](https://...) links, [attribute] placeholders),
 * written into the branded frame; `html`, when given, is the issuer's whole HTML, used as it is.
 * Links must be http, https or mailto and placeholders known, in every field: a problem is refused
 * when saving, never dropped when sending.
 */
export const emailTemplate = z.strictObject({
  subject: singleLineText({ trim: true })
    .min(1, "must not be empty")
    .max(300, "must be at most 300 characters")
    .superRefine(noProblems(placeholderProblems, 300))
    .describe(EMAIL_SUBJECT_DESCRIPTION),
  html: multiLineText()
    .max(100_000, "must be at most 100000 characters")
    .superRefine(noProblems(htmlLinkProblems, 100_000))
    .nullable()
    .optional()
    .describe(EMAIL_HTML_DESCRIPTION),
  text: multiLineText()
    .max(MAX_EMAIL_TEXT, `must be at most ${MAX_EMAIL_TEXT} characters`)
    .superRefine(noProblems(emailMarkupProblems, MAX_EMAIL_TEXT))
    .nullable()
    .optional()
    .describe(EMAIL_TEXT_DESCRIPTION),
});

/**
 * The language the group's credentials speak: their email, and their wallet page whoever reads it.
 * null or absent: the email is in English and the wallet follows each reader's browser.
 */
export const groupLanguage = z.enum(SUPPORTED_LOCALES, {
  error: () => `must be one of ${SUPPORTED_LOCALES.join(", ")}, or null to follow each reader's language`,
});

const designId = singleLineText().min(1, "must not be empty").max(100);

export const designIds = z
  .array(designId)
  .min(1, "must list at least one design")
  .max(MAX_DESIGNS_PER_GROUP, `must list at most ${MAX_DESIGNS_PER_GROUP} designs`)
  .superRefine((ids, ctx) => {
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: [i], message: "is listed twice" });
    });
  });

const designFields = {
  designIds: designIds.optional(),
  certificateDesignId: designId.optional(),
  badgeDesignId: designId.optional(),
};

const extraFields = {
  description: groupDescription.nullable().optional(),
  criteria: groupCriteria.nullable().optional(),
  expiryPeriod: expiryPeriod.nullable().optional(),
  emailTemplate: emailTemplate.nullable().optional(),
  language: groupLanguage.nullable().optional(),
  expiryReminderDays: expiryReminderDays.nullable().optional(),
};

type DesignFields = { designIds?: string[]; certificateDesignId?: string; badgeDesignId?: string };

function oneShape(body: DesignFields, ctx: z.RefinementCtx, required: boolean) {
  const legacy = body.certificateDesignId !== undefined || body.badgeDesignId !== undefined;
  if (legacy && body.designIds !== undefined) {
    for (const key of ["certificateDesignId", "badgeDesignId"] as const) {
      if (body[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: "cannot be sent together with designIds; use designIds only" });
      }
    }
  } else if (required && !legacy && body.designIds === undefined) {
    ctx.addIssue({ code: "custom", path: ["designIds"], message: "is required (or the legacy certificateDesignId / badgeDesignId)" });
  }
}

export const CreateGroupBody = z
  .strictObject({ name: groupName, learningEventUrl: learningEventUrl.nullable().optional(), ...extraFields, ...designFields })
  .superRefine((body, ctx) => oneShape(body, ctx, true));
export type CreateGroupInput = z.infer<typeof CreateGroupBody>;

export const UpdateGroupBody = z
  .strictObject({ name: groupName.optional(), learningEventUrl: learningEventUrl.nullable().optional(), ...extraFields, ...designFields })
  .superRefine((body, ctx) => oneShape(body, ctx, false));
export type UpdateGroupInput = z.infer<typeof UpdateGroupBody>;

/** The response shape, for the OpenAPI document. */
export const GroupResponse = z.object({
  id: z.string(),
  name: z.string(),
  learningEventUrl: z.string().nullable(),
  description: z
    .string()
    .nullable()
    .describe(
      'What the group\'s credentials stand for; null: the default "<group name>, awarded by <organization name>." is shown and signed.',
    ),
  criteria: z
    .string()
    .nullable()
    .describe('How a credential of the group is earned; null: the default "Awarded by <organization name>." is shown and signed.'),
  designIds: z.array(z.string()),
  certificateDesignId: z.string().nullable().optional().describe("Deprecated; present only when the legacy shape was used."),
  badgeDesignId: z.string().nullable().optional().describe("Deprecated; present only when the legacy shape was used."),
  expiryPeriod: expiryPeriod.nullable().describe("Default expiry of the group's credentials; null: they do not expire."),
  emailTemplate: z
    .object({
      subject: z.string().describe(EMAIL_SUBJECT_DESCRIPTION),
      html: z.string().nullable().describe(EMAIL_HTML_DESCRIPTION),
      text: z.string().nullable().describe(EMAIL_TEXT_DESCRIPTION),
    })
    .nullable()
    .describe("null: the built-in template."),
  language: z
    .enum(SUPPORTED_LOCALES)
    .nullable()
    .describe(
      "The language of the group's credential emails and wallet pages; null: emails in English, and each wallet page in its reader's browser language (Accept-Language).",
    ),
  expiryReminderDays: z
    .number()
    .int()
    .min(1)
    .max(365)
    .nullable()
    .describe(
      "Email each credential's recipient this many days before its expiry date (with the wallet link and, when set, the learningEventUrl to renew), and send `credential.expiring`; null: no reminder.",
    ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
