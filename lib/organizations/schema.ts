import { z } from "zod";
import { singleLineText } from "../core/text";

export const PLANS = ["free", "premium"] as const;
export type Plan = (typeof PLANS)[number];

export const organizationSlug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/, "must be 1-50 lowercase letters, digits or '-', not starting or ending with '-'");

export const tokenName = singleLineText({ trim: true }).min(1, "must not be empty").max(100, "must be at most 100 characters");
