import { z } from "zod";

/** `{ data, pagination }`, for the OpenAPI document. */
export function pageOf(item: z.ZodType) {
  return z.object({ data: z.array(item), pagination: z.object({ prev: z.string().nullable(), next: z.string().nullable() }) });
}
