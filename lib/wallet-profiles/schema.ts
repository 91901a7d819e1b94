// What a recipient may set on their public profile (PATCH {WALLET_URL}/api/wallet/me/profile).
import { z } from "zod";
import { singleLineText } from "../core/text";

export const HANDLE_MIN = 3;
export const HANDLE_MAX = 40;
export const DISPLAY_NAME_MAX = 100;

// One rule, one message: a handle that breaks it twice (empty, too short and with a space) is still one mistake.
const HANDLE_PATTERN = new RegExp(`^[a-z0-9-]{${HANDLE_MIN},${HANDLE_MAX}}$`);

/**
 * ASCII capitals only: a full Unicode lower-casing would turn the Kelvin sign (U+212A) into "k" and
 * let two different inputs claim what looks like one handle.
 */
export function foldHandle(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Handles a page at /profiles/<handle> could use to pass for the service, its operators or a route of
 * its own ("/profiles/admin", "/profiles/verify"). Exact words only: "ada-support" is a person's.
 */
const RESERVED_HANDLES: ReadonlySet<string> = new Set(
  (
    "abuse about account accounts admin administrator api billing credential credentials dashboard docs help hostmaster " +
    "info issuer issuers login logout mail moderator no-reply noreply official owner postmaster profile profiles root " +
    "security settings signin signup staff support system team verification verified verifier verify wallet webmaster www"
  ).split(" "),
);

export const profileHandle = z
  .string()
  .transform(foldHandle)
  .pipe(
    z
      .string()
      .regex(HANDLE_PATTERN, `must be ${HANDLE_MIN} to ${HANDLE_MAX} characters, each a letter a-z, a digit 0-9 or a hyphen (-)`)
      .refine((handle) => !RESERVED_HANDLES.has(handle), "is reserved; choose another"),
  );

export const UpdateWalletProfileBody = z.strictObject({
  handle: profileHandle.optional(),
  displayName: singleLineText({ trim: true })
    .pipe(z.string().min(1, "must not be empty").max(DISPLAY_NAME_MAX, `must be at most ${DISPLAY_NAME_MAX} characters`))
    .optional(),
  public: z.boolean().optional(),
});
export type UpdateWalletProfileInput = z.output<typeof UpdateWalletProfileBody>;

export const WalletProfileSchema = z.object({
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  public: z.boolean(),
  /** The public page's address while the profile is public, else null. */
  url: z.string().nullable(),
});
export type WalletProfileView = z.infer<typeof WalletProfileSchema>;
