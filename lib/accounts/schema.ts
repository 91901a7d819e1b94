// Dashboard account forms.
import { z } from "zod";

export const accountEmail = z.email("must be a valid email address").max(254, "must be at most 254 characters");

export const SignUpInput = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  email: accountEmail,
  password: z.string().min(10, "must be at least 10 characters").max(200, "must be at most 200 characters"),
  organizationName: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
});
export type SignUpInput = z.infer<typeof SignUpInput>;
