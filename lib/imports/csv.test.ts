import { describe, expect, it } from "vitest";
import { CsvError, decodeCsvBytes, detectSeparator, formatCsv, parseCsv, parseCsvRecords, readCsvUpload, spreadsheetSafe } from "./csv";

const utf8 = (text: string) => new TextEncoder().encode(text);
const fieldsOf = (text: string, separator: "," | ";" = ",") => parseCsvRecords(text, separator).map((r) => r.fields);
const linesOf = (text: string, separator: "," | ";" = ",") => parseCsvRecords(text, separator).map((r) => r.line);

function csvError(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(CsvError);
    return (error as Error).message;
  }
  throw new Error("expected a CsvError");
}

describe("parseCsvRecords (RFC 4180)", () => {
  it("splits plain fields and records", () => {
    expect(fieldsOf("a,b,c\n1,2,3\n")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
    ]);
  });

  it("accepts LF, CRLF and lone CR line breaks, with or without a final one", () => {
    expect(fieldsOf("a,b\r\n1,2\r\n3,4")).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
    ]);
    expect(fieldsOf("a,b\r1,2\r")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fieldsOf("a,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("keeps empty fields, including a trailing one", () => {
    expect(fieldsOf("a,,c\n,,\n1,2,")).toEqual([
      ["a", "", "c"],
      ["", "", ""],
      ["1", "2", ""],
    ]);
  });

  it("reads quoted fields with separators, doubled quotes and line breaks inside", () => {
    const text = 'name,note\n"Lovelace, Ada","She said ""hello""."\n"Grace\nHopper","line one\r\nline two"\n';
    expect(fieldsOf(text)).toEqual([
      ["name", "note"],
      ["Lovelace, Ada", 'She said "hello".'],
      ["Grace\nHopper", "line one\r\nline two"],
    ]);
  });

  it("reads an empty quoted field and a field that is only a doubled quote", () => {
    expect(fieldsOf('"",""""\n')).toEqual([["", '"']]);
  });

  it("numbers each record by the line it starts on, counting line breaks inside quotes", () => {
    const text = 'h1,h2\n"multi\nline\nvalue",x\nnext,row\n\n\nafter,blanks\n"a\r\nb",c\r\nlast,one';
    expect(linesOf(text)).toEqual([1, 2, 5, 8, 9, 11]);
  });

  it("skips blank lines anywhere, but keeps a record of empty fields", () => {
    expect(fieldsOf("\n\na,b\n\n1,2\n\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fieldsOf("a,b\n,\n")).toEqual([
      ["a", "b"],
      ["", ""],
    ]);
  });

  it("splits on semicolons when told to, leaving commas in values alone", () => {
    expect(fieldsOf('name;score\nAda;9,5\n"x;y";1', ";")).toEqual([
      ["name", "score"],
      ["Ada", "9,5"],
      ["x;y", "1"],
    ]);
  });

  it("keeps whitespace and non-ASCII text as it is", () => {
    expect(fieldsOf(" a , b \nZoë Ångström,李小龙")).toEqual([
      [" a ", " b "],
      ["Zoë Ångström", "李小龙"],
    ]);
  });

  it("refuses an unclosed quote, naming the line it opened on", () => {
    expect(csvError(() => parseCsvRecords('a,b\n1,"open\n2,3\n', ","))).toMatch(/^Line 2: a quoted field is not closed/);
  });

  it("refuses text after a closing quote, naming line and field", () => {
    expect(csvError(() => parseCsvRecords('a,b\n"x\ny"z,1\n', ","))).toMatch(/^Line 3, field 1: there is text after the closing quote/);
  });

  it("refuses a quote inside an unquoted field", () => {
    expect(csvError(() => parseCsvRecords('a,b\n1,2 "inch"\n', ","))).toMatch(/^Line 2, field 2: a quote \("\) inside a field/);
  });

  it("parses a large file quickly", () => {
    const rows = Array.from(
      { length: 10_000 },
      (_, i) => `"Person ${i}, Jr.",person${i}@example.com,2026-01-15,"note with ""quotes""\nand a line"`,
    );
    const text = `name,email,issued,note\n${rows.join("\n")}\n`;
    const started = performance.now();
    const table = parseCsv(text);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(table.records).toHaveLength(10_000);
    expect(table.records[9_999]).toEqual({
      line: 2 + 9_999 * 2,
      fields: ["Person 9999, Jr.", "person9999@example.com", "2026-01-15", 'note with "quotes"\nand a line'],
    });
  });
});

describe("detectSeparator", () => {
  it("picks what the header row uses more of, outside quotes", () => {
    expect(detectSeparator("a,b,c\n1;2;3;4;5")).toBe(",");
    expect(detectSeparator("a;b;c\n1,2,3,4,5")).toBe(";");
    expect(detectSeparator('"a,b,c";d;e\n')).toBe(";");
    expect(detectSeparator('"x;y;z",d\n')).toBe(",");
  });

  it("defaults to commas for a single column, and ignores blank lines before the header", () => {
    expect(detectSeparator("name\nAda;Lovelace\n")).toBe(",");
    expect(detectSeparator("\r\n\r\nname;email\n")).toBe(";");
  });
});

describe("decodeCsvBytes", () => {
  it("drops a UTF-8 byte order mark", () => {
    expect(decodeCsvBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("name\nZoë")]))).toBe("name\nZoë");
  });

  it("refuses text that is not UTF-8 (e.g. Windows-1252)", () => {
    expect(csvError(() => decodeCsvBytes(new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x5a, 0x6f, 0xeb])))).toMatch(/not UTF-8 text/);
  });

  it("recognises an Excel workbook and says how to export CSV", () => {
    expect(csvError(() => decodeCsvBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0])))).toMatch(/workbook \(\.xlsx\).*CSV UTF-8/);
  });
});

describe("parseCsv and readCsvUpload", () => {
  it("detects the separator, trims header names and numbers data lines", () => {
    const table = readCsvUpload(utf8("\uFEFF Name ;E-mail\r\nAda;ada@example.com\r\n"));
    expect(table).toEqual({ separator: ";", header: ["Name", "E-mail"], records: [{ line: 2, fields: ["Ada", "ada@example.com"] }] });
  });

  it("refuses an empty file, a file of blank lines, and a header without data", () => {
    expect(csvError(() => readCsvUpload(new Uint8Array()))).toMatch(/The file is empty/);
    expect(csvError(() => readCsvUpload(utf8("\n\n\r\n")))).toMatch(/The file is empty/);
    expect(csvError(() => readCsvUpload(utf8("\uFEFF")))).toMatch(/The file is empty/);
    expect(csvError(() => readCsvUpload(utf8("name,email\n")))).toBe("The file has a header row but no data rows.");
  });

  it("allows exactly the row limit and refuses one more, saying how many there are", () => {
    const file = (rows: number) => utf8(`name\n${Array.from({ length: rows }, (_, i) => `P${i}`).join("\n")}`);
    expect(readCsvUpload(file(10_000)).records).toHaveLength(10_000);
    expect(csvError(() => readCsvUpload(file(10_001)))).toBe(
      "The file has 10,001 data rows; at most 10,000 can be imported at once. Split it into several files.",
    );
    expect(csvError(() => readCsvUpload(file(4), { maxRows: 3 }))).toMatch(/has 4 data rows; at most 3/);
  });

  it("allows exactly the size limit and refuses a byte more", () => {
    const exact = new Uint8Array(5 * 1024 * 1024).fill(0x61);
    exact.set(utf8("name\n"));
    expect(readCsvUpload(exact).records).toHaveLength(1);
    const over = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x61);
    expect(csvError(() => readCsvUpload(over))).toBe(
      "The file is just over 5 MB; at most 5 MB can be imported at once. Split it into several files.",
    );
    expect(csvError(() => readCsvUpload(new Uint8Array(6_000_000)))).toMatch(/^The file is 5\.7 MB/);
  });
});

describe("formatCsv", () => {
  it("quotes separators, quotes and line breaks as the reader reads them back", () => {
    const rows = [
      ["Template", "Issued"],
      ['Safety, "advanced"', "line\nbreak"],
      [" padded ", "Zoë Ångström 数据"],
    ];
    const text = formatCsv(rows);
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(text).toContain('"Safety, ""advanced"""');
    const table = parseCsv(text);
    expect([table.header, ...table.records.map((r) => r.fields)]).toEqual(rows);
  });

  it("prefixes cells a spreadsheet would run as formulas; numbers stay numbers", () => {
    const text = formatCsv([
      ["a", "b", "c", "d", "e", "f"],
      ["=1+1", "+SUM(A1)", "-2", "@cmd", "\t=x", 42],
    ]);
    const record = parseCsv(text).records[0]!;
    expect(record.fields).toEqual(["'=1+1", "'+SUM(A1)", "'-2", "'@cmd", "'\t=x", "42"]);
    expect(spreadsheetSafe("Course = 1")).toBe("Course = 1");
  });
});
