import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv";
import { guessMapping } from "./mapping";
import { checkRecords, describeProblem } from "./validation";

function report(csv: string) {
  const table = parseCsv(csv);
  const { mapping } = guessMapping(table.header);
  const rows = checkRecords(table.records, table.header, mapping, "grp_1");
  return {
    valid: rows.filter((r) => r.valid).length,
    problems: rows.flatMap((r) => (r.valid ? [] : r.problems.map((p) => describeProblem(r.line, p)))),
    rows,
  };
}

describe("checking rows with the API's schema", () => {
  it("reports each bad row with its line, its column and the API's message", () => {
    const { valid, problems } = report(
      [
        "Name,E-mail,Issue date,Grade",
        "Ada Lovelace,ada@example.com,2026-01-15,A",
        "Bad Email,not-an-email,,B",
        "Bad Date,bad.date@example.com,2026-02-30,C",
        ",no.name@example.com,2026-01-15,D",
        '"Quoted, Name",quoted@example.com,,',
        "Ada Again,ADA@example.com,,A", // the same recipient again is fine
      ].join("\n"),
    );
    expect(valid).toBe(3);
    expect(problems).toEqual([
      "line 3, E-mail: must be a valid email address",
      "line 4, Issue date: must be a real calendar date in YYYY-MM-DD form",
      "line 5, Name: must not be empty",
    ]);
  });

  it("keeps the parsed body of a valid row: the API's request, trimmed", () => {
    const { rows } = report("Full name;Email address;Grade\n  Zoë Ångström ;zoe@example.com;A+\n");
    expect(rows[0]).toEqual({
      line: 2,
      valid: true,
      input: {
        groupId: "grp_1",
        recipient: { name: "Zoë Ångström", email: "zoe@example.com" },
        customAttributes: { "custom.grade": "A+" },
      },
    });
  });

  it("lists every problem of a row, and the service's date-order rule too", () => {
    const { problems } = report(
      [
        "name,email,issued,expires,notes",
        `${"x".repeat(201)},a@b,2026-13-01,2026-01-01,${"y".repeat(10_001)}`,
        "Late,late@example.com,2026-06-01,2026-05-31,",
      ].join("\n"),
    );
    expect(problems).toEqual([
      "line 2, name: must be at most 200 characters",
      "line 2, email: must be a valid email address",
      "line 2, issued: must be a real calendar date in YYYY-MM-DD form",
      "line 2, notes: must be at most 10000 characters",
      "line 3, expires: must not be before the issue date (2026-06-01)",
    ]);
  });

  it("refuses a row with more or fewer fields than the header instead of shifting its values", () => {
    const { problems, valid } = report("name,email\nAda,ada@example.com,extra\nGrace\nOk,ok@example.com\n");
    expect(valid).toBe(1);
    expect(problems).toEqual([
      "line 2: has 3 fields but the header has 2; check this line's separators and quotes",
      "line 3: has 1 field but the header has 2; check this line's separators and quotes",
    ]);
  });

  it("numbers rows by the line they start on when a quoted value spans lines", () => {
    // A custom attribute may hold line breaks; a name may not (it is one line wherever it is shown).
    const { problems } = report('name,email,note\nOne,one@example.com,"Two\nLines"\nBad,bad,\n"Two\nNames",two@example.com,\n');
    expect(problems).toEqual([
      "line 4, email: must be a valid email address",
      "line 5, name: must be a single line without control characters (found U+000A)",
    ]);
  });
});
