// What a dashboard server action answers to its form: success, or the same validation details the
// API would give, keyed by field so each message shows next to the field that caused it.
import { ApiError } from "../core/errors";
import { errorSummary, log } from "../log";

export type FormState<T = undefined> =
  | { status: "idle" }
  | { status: "ok"; message?: string; result: T }
  | { status: "error"; message: string; fieldErrors: Record<string, string> };

export async function runFormAction<T>(work: () => Promise<T>, okMessage?: string): Promise<FormState<T>> {
  try {
    const result = await work();
    return { status: "ok", message: okMessage, result };
  } catch (error) {
    if (error instanceof ApiError) {
      const fieldErrors: Record<string, string> = {};
      for (const d of error.details ?? []) fieldErrors[d.path] ??= d.message;
      const message = error.code === "validation_error" ? "Please correct the highlighted fields." : error.message;
      return { status: "error", message, fieldErrors };
    }
    // Next's redirect()/notFound() signal through exceptions; they must pass through.
    if (error && typeof error === "object" && "digest" in error) throw error;
    log.error("dashboard_action_failed", errorSummary(error));
    return { status: "error", message: "Something went wrong on our side; please try again.", fieldErrors: {} };
  }
}
