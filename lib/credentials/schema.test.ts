import { describe, expect, it } from "vitest";
import { safeParseWithDetails } from "../core/validation";
import { CreateCredentialBody, UpdateCredentialBody } from "./schema";

const body = (recipient: Record<string, unknown>) => ({
  groupId: "grp_1",
  recipient: { name: "Ada", email: "ada@example.com", ...recipient },
});

describe("recipient.id on create (a published LMS plug-in always sends it as null)", () => {
  it("accepts null and leaving it out, and the service sees the same recipient either way", () => {
    const withNull = safeParseWithDetails(CreateCredentialBody, body({ id: null }));
    const without = safeParseWithDetails(CreateCredentialBody, body({}));
    expect(withNull.ok && without.ok).toBe(true);
    if (!withNull.ok || !without.ok) return;
    expect(withNull.data.recipient.name).toBe("Ada");
    expect(withNull.data.recipient.email).toBe("ada@example.com");
    expect(without.data.recipient).toEqual({ name: "Ada", email: "ada@example.com" });
  });

  it("refuses any other value with a validation detail on recipient.id alone", () => {
    for (const id of ["rcp_123", "", 0, 7, false, true, {}, { id: "rcp_1" }, [], [null]]) {
      const parsed = safeParseWithDetails(CreateCredentialBody, body({ id }));
      expect(parsed.ok, JSON.stringify(id)).toBe(false);
      if (parsed.ok) continue;
      expect(
        parsed.details.map((d) => d.path),
        JSON.stringify(id),
      ).toEqual(["recipient.id"]);
      expect(parsed.details[0]!.message).toMatch(/must be null or left out/);
    }
  });

  it("still refuses other unknown recipient fields, and PATCH still requires a real id", () => {
    const extra = safeParseWithDetails(CreateCredentialBody, body({ id: null, phone: "1" }));
    expect(extra.ok ? [] : extra.details).toEqual([{ path: "recipient.phone", message: "is not a known field" }]);
    const patch = safeParseWithDetails(UpdateCredentialBody, { recipient: { id: null, name: "Ada" } });
    expect(patch.ok ? [] : patch.details.map((d) => d.path)).toEqual(["recipient.id"]);
  });
});
