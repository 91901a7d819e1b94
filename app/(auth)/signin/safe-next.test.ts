import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext: where a sign-in goes afterwards", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeNext("/dashboard/credentials?status=draft#top")).toBe("/dashboard/credentials?status=draft#top");
  });

  it.each([
    null,
    "",
    "dashboard",
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "/\t/evil.example",
    "/\\\\evil.example",
    "\\/evil.example",
  ])("sends %j to the dashboard instead of another site", (next) => {
    expect(safeNext(next)).toBe("/dashboard");
  });
});
