// The template form's email: own text without a subject takes the built-in subject (the label says
// "a default is used otherwise"), in the template's language, and is not refused as empty.
import { describe, expect, it } from "vitest";
import { emailDraftFrom, subjectOrDefault } from "./email-draft";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the subject of a template's own email text", () => {
  it("is the built-in subject's pattern when only the text is written, and is accepted", () => {
    const { draft, fieldErrors } = emailDraftFrom(form({ name: "Safety", emailSubject: "", emailText: "Dear **[recipient.name]**," }));
    expect(fieldErrors).toEqual({});
    expect(draft.template.subject).toContain("[group.name]");
    expect(draft.template.subject).toContain("[organization.name]");
  });

  it("follows the template's language, and keeps a subject that is written", () => {
    const english = subjectOrDefault(form({ emailText: "Hello" }));
    const german = subjectOrDefault(form({ emailText: "Hallo", language: "de" }));
    expect(german).not.toBe(english);
    expect(subjectOrDefault(form({ emailSubject: "Well done, [recipient.name]", emailText: "Hi" }))).toBe("Well done, [recipient.name]");
  });

  it("stays empty when neither is written: the built-in email", () => {
    expect(subjectOrDefault(form({ emailSubject: "", emailText: "" }))).toBe("");
  });
});
