// Dashboard account forms.
import { z } from "zod";
import { multiLineText, singleLineText } from "../core/text";

export const accountEmail = z.email("must be a valid email address").max(254, "must be at most 254 characters");

/** The one rule for a new password: at sign-up, on a change and on a reset. Any text a keyboard or a
 *  password manager can type (so the loosest text rule), never a NUL or a broken surrogate. */
export const newAccountPassword = multiLineText().min(10, "must be at least 10 characters").max(200, "must be at most 200 characters");

export const SignUpInput = z.strictObject({
  name: singleLineText({ trim: true }).min(1, "must not be empty").max(100, "must be at most 100 characters"),
  email: accountEmail,
  password: newAccountPassword,
  organizationName: singleLineText({ trim: true }).min(1, "must not be empty").max(100, "must be at most 100 characters"),
});
export type SignUpInput = z.infer<typeof SignUpInput>;

export const ChangePasswordInput = z.strictObject({
  // Only its presence is checked here; whether it is right is the service's question.
  currentPassword: z.string().min(1, "is required").max(200, "is not correct"),
  newPassword: newAccountPassword,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const PasswordResetRequestInput = z.strictObject({ email: accountEmail });

export const PasswordResetInput = z.strictObject({
  // Any text: whether it is a live link is the service's question, answered with one clear message.
  token: singleLineText(),
  newPassword: newAccountPassword,
});
export type PasswordResetInput = z.infer<typeof PasswordResetInput>;
