// What a dashboard server action answers to its form: success, or the same validation details the
// API would give, keyed by field so each message shows next to the field that caused it.
import { ApiError } from "../core/errors";
import { errorSummary, log } from "../log";

export type FormState<T = undefined> =
  | { status: "idle" }
  | { status: "ok"; message?: string; result: T }
  | { status: "error"; message: string; fieldErrors: Record<string, string> };

/**
 * The answer to a server action called with arguments its page never sends (another program posting to
 * the action, say a list where the form's data belongs): a plain refusal in the form's usual error
 * state, logged as a warning since it is the caller's mistake, not a fault of ours.
 */
export function refusedArguments(): FormState<never> {
  log.warn("dashboard_action_arguments_refused", { reason: "the action's arguments are not what its form sends" });
  return { status: "error", message: "The form's data could not be read; please reload the page and try again.", fieldErrors: {} };
}

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
