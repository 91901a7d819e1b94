import { describe, expect, it } from "vitest";
import { safeParseWithDetails } from "@/lib/core/validation";
import { UpdateCredentialBody } from "@/lib/credentials/schema";
import { editRequest, newAttributeKey } from "./edit-request";

/** The form as the browser sends it: every field with its `was:` twin, as shown when the form opened. */
function submit(shown: Record<string, string>, typed: Record<string, string> = {}) {
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(shown)) {
    if (name.startsWith("newAttribute")) fields.set(name, value);
    else if (name === "recipientId") fields.set(name, value);
    else {
      fields.set(`was:${name}`, value);
      fields.set(name, value);
    }
  }
  for (const [name, value] of Object.entries(typed)) fields.set(name, value);
  return editRequest((name) => fields.get(name) ?? null, fields.keys());
}

const shown = {
  recipientId: "rcp_1",
  recipientName: "Ada Lovelace",
  recipientEmail: "ada@example.com",
  issueDate: "2026-01-10",
  expiryDate: "",
  "attr:custom.grade": "A",
  "attr:custom.note": "",
  newAttributeTag: "",
  newAttributeValue: "",
};

describe("editRequest", () => {
  it("sends nothing when nothing changed", () => {
    expect(submit(shown)).toEqual({ body: {}, problems: [] });
    // Trailing spaces in a name are no change: the API trims names.
    expect(submit(shown, { recipientName: "Ada Lovelace  " }).body).toEqual({});
  });

  it("sends only what changed; the recipient with its id, the email only when it changed", () => {
    expect(submit(shown, { recipientName: "Ada King" }).body).toEqual({ recipient: { id: "rcp_1", name: "Ada King" } });
    expect(submit(shown, { recipientEmail: " ada@lovelace.org " }).body).toEqual({
      recipient: { id: "rcp_1", name: "Ada Lovelace", email: "ada@lovelace.org" },
    });
    expect(submit(shown, { issueDate: "2026-02-01" }).body).toEqual({ issueDate: "2026-02-01" });
    expect(submit(shown, { "attr:custom.grade": "B" }).body).toEqual({ customAttributes: { "custom.grade": "B" } });
  });

  it("an emptied expiry date or attribute is null; a new attribute is named by its tag", () => {
    expect(submit({ ...shown, expiryDate: "2027-01-10" }, { expiryDate: "" }).body).toEqual({ expiryDate: null });
    expect(submit(shown, { "attr:custom.grade": "" }).body).toEqual({ customAttributes: { "custom.grade": null } });
    expect(submit(shown, { newAttributeTag: " mentor ", newAttributeValue: "Grace" }).body).toEqual({
      customAttributes: { "custom.mentor": "Grace" },
    });
    expect(newAttributeKey("custom.mentor")).toBe("custom.mentor");
  });

  it("line breaks sent as CRLF by the form are no change, and are stored as typed", () => {
    const multi = { ...shown, "attr:custom.note": "line one\nline two" };
    expect(submit(multi, { "attr:custom.note": "line one\r\nline two", "was:attr:custom.note": "line one\r\nline two" }).body).toEqual({});
    expect(submit(multi, { "attr:custom.note": "line one\r\nline 2" }).body).toEqual({
      customAttributes: { "custom.note": "line one\nline 2" },
    });
  });

  it("without a recipient there is no recipient field to send", () => {
    const { recipientId: _, ...noRecipient } = shown;
    expect(submit(noRecipient, { recipientName: "Someone else" }).body).toEqual({});
  });

  it("a value without a name is the form's own mistake", () => {
    expect(submit(shown, { newAttributeValue: "Grace" }).problems).toEqual([
      { path: "newAttributeTag", message: "name the new attribute" },
    ]);
  });

  it("mistakes reach the API's schema as typed, which names the field", () => {
    const parsed = safeParseWithDetails(
      UpdateCredentialBody,
      submit(shown, { recipientName: " ", recipientEmail: "not an email", newAttributeTag: "two words", newAttributeValue: "x" }).body,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const paths = parsed.details.map((d) => d.path);
    expect(paths).toContain("recipient.name");
    expect(paths).toContain("recipient.email");
    expect(paths.some((p) => p.startsWith("customAttributes"))).toBe(true);
    // An emptied issue date is sent as empty, and refused, rather than silently kept.
    const noDate = safeParseWithDetails(UpdateCredentialBody, submit(shown, { issueDate: "" }).body);
    expect(noDate.ok ? [] : noDate.details.map((d) => d.path)).toEqual(["issueDate"]);
  });
});
