import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "../log";
import { refusedArguments, runFormAction } from "./form-state";

afterEach(() => vi.restoreAllMocks());

describe("refusedArguments", () => {
  it("is the form's usual error state, logged as one warning and never as an error", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    expect(refusedArguments()).toEqual({ status: "error", message: expect.stringContaining("could not be read"), fieldErrors: {} });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe("dashboard_action_arguments_refused");
    expect(error).not.toHaveBeenCalled();
  });
});

describe("runFormAction", () => {
  it("still reports a fault of ours at error level", async () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const state = await runFormAction(() => Promise.reject(new TypeError("a bug")));
    expect(state.status).toBe("error");
    expect(error.mock.calls[0]![0]).toBe("dashboard_action_failed");
  });
});
