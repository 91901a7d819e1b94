import { describe, expect, it } from "vitest";
import { credentialBodyFor, customKeyForHeader, guessMapping, readMapping } from "./mapping";

describe("guessMapping", () => {
  it("recognises the common names of each field, whatever their case, spacing and punctuation", () => {
    for (const [name, email, issued, expiry] of [
      ["Name", "E-mail", "Issue date", "Expiry date"],
      ["Full name", "Email address", "issued_on", "Expires"],
      ["recipient name", "EMAIL", "Date", "Valid until"],
      ["Participant", "e_mail", "DATE ISSUED", "expiration-date"],
    ]) {
      const { mapping } = guessMapping([email!, "ignored?", expiry!, name!, issued!]);
      expect(mapping, [name, email, issued, expiry].join(" | ")).toMatchObject({
        "recipient.name": 3,
        "recipient.email": 0,
        issueDate: 4,
        expiryDate: 2,
      });
    }
  });

  it("maps custom.<tag> headers and other columns to custom attributes of their own name", () => {
    const { targets, mapping } = guessMapping(["Name", "custom.grade", "Final Score (%)", "Ville d'été"]);
    expect(mapping).toEqual({ "recipient.name": 0, "custom.grade": 1, "custom.final_score": 2, "custom.ville_d_ete": 3 });
    expect(targets.map((t) => t.key)).toEqual([
      "recipient.name",
      "recipient.email",
      "issueDate",
      "expiryDate",
      "custom.grade",
      "custom.final_score",
      "custom.ville_d_ete",
    ]);
    expect(targets[0]).toEqual({ key: "recipient.name", label: "Recipient name", required: true });
  });

  it("prefers the template's own custom keys: 'Grade' feeds the template's [custom.Grade]", () => {
    const { targets, mapping } = guessMapping(["Name", "Grade", "Hours"], ["custom.Grade", "custom.mentor"]);
    expect(mapping).toEqual({ "recipient.name": 0, "custom.Grade": 1, "custom.hours": 2 });
    expect(targets.map((t) => t.key)).toContain("custom.mentor"); // offered, with no column yet
  });

  it("'Grade' without a template key becomes custom.grade", () => {
    expect(guessMapping(["Name", "Grade"]).mapping).toEqual({ "recipient.name": 0, "custom.grade": 1 });
  });

  it("gives each column to one field only, and leaves unnamed columns unmapped", () => {
    const { mapping } = guessMapping(["Name", "Name", "", "???"]);
    expect(mapping).toEqual({ "recipient.name": 0, "custom.name": 1 });
  });
});

describe("customKeyForHeader", () => {
  it("keeps valid keys and makes others valid", () => {
    expect(customKeyForHeader(" custom.Course-Code ")).toBe("custom.Course-Code");
    expect(customKeyForHeader("Kurs Nr.")).toBe("custom.kurs_nr");
    expect(customKeyForHeader("x".repeat(80))).toBe(`custom.${"x".repeat(64)}`);
    expect(customKeyForHeader("李")).toBeNull();
  });
});

describe("credentialBodyFor", () => {
  const mapping = { "recipient.name": 0, "recipient.email": 1, issueDate: 2, "custom.grade": 3 } as const;

  it("builds the API's create body from trimmed cells, leaving out empty optional ones", () => {
    expect(credentialBodyFor([" Ada Lovelace ", " ada@example.com", "2026-01-15", "A+"], mapping, "grp_1")).toEqual({
      groupId: "grp_1",
      recipient: { name: "Ada Lovelace", email: "ada@example.com" },
      issueDate: "2026-01-15",
      customAttributes: { "custom.grade": "A+" },
    });
    expect(credentialBodyFor(["", " ", "", ""], mapping, "grp_1")).toEqual({ groupId: "grp_1", recipient: { name: "" } });
  });
});

describe("readMapping", () => {
  it("reads map:<field> entries; an empty value means not imported", () => {
    const result = readMapping(
      Object.entries({ "map:recipient.name": "2", "map:recipient.email": "", "map:custom.grade": "0", other: "x" }),
      3,
    );
    expect(result).toEqual({ ok: true, mapping: { "recipient.name": 2, "custom.grade": 0 } });
  });

  it("requires a name column and refuses columns and fields that do not exist", () => {
    const result = readMapping(Object.entries({ "map:recipient.email": "7", "map:custom.bad key": "0", "map:groupId": "1" }), 3);
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: "recipient.email", message: "choose one of the file's columns" },
        { path: "custom.bad key", message: "is not a field a column can be imported into" },
        { path: "groupId", message: "is not a field a column can be imported into" },
        { path: "recipient.name", message: "choose the column that holds the recipients' names" },
      ],
    });
  });
});
