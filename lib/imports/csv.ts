// Reading an uploaded CSV file: UTF-8 (a byte order mark is allowed and dropped), comma- or
// semicolon-separated (detected from the header row, since spreadsheets in many locales write `;`),
// quoted as RFC 4180 says: a field in double quotes may hold separators, line breaks and doubled
// quotes (""). Anything else that is not well-formed is refused with the line it is on, rather than
// guessed at: a wrong guess would shift values into the wrong columns of real credentials.

export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_MAX_ROWS = 10_000;

export type CsvSeparator = "," | ";";

/** One data record and the line of the file it starts on (the header is usually line 1). */
export type CsvRecord = { line: number; fields: string[] };

export type CsvTable = { separator: CsvSeparator; header: string[]; records: CsvRecord[] };

/** A file that cannot be imported; the message says why and, where it helps, on which line. */
export class CsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CsvError";
  }
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

const formatCount = (n: number) => n.toLocaleString("en-US");

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
}

/** The file's bytes as text. Spreadsheets offer several encodings; only UTF-8 keeps every name intact. */
export function decodeCsvBytes(bytes: Uint8Array): string {
  // An .xlsx workbook is a zip archive: say what to do instead of "not UTF-8".
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw new CsvError(
      "This is a spreadsheet workbook (.xlsx), not a CSV file. In your spreadsheet program choose Save As → “CSV UTF-8”, then upload that file.",
    );
  }
  try {
    // fatal: a byte sequence that is not UTF-8 is an error instead of a silent U+FFFD in a name.
    // The BOM, if any, is dropped by the decoder (ignoreBOM false).
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CsvError("The file is not UTF-8 text. Save it as “CSV UTF-8” in your spreadsheet program and upload it again.");
  }
}

/**
 * `;` when the header row (outside quotes) has more semicolons than commas, otherwise `,`. The header
 * decides because it is written by the exporter and rarely contains either character by itself.
 */
export function detectSeparator(text: string): CsvSeparator {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  let content = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE)
      quoted = !quoted; // a doubled quote toggles twice: still right
    else if (!quoted && (c === LF || c === CR)) {
      if (content) break; // the header row ended (blank lines before it do not count)
      continue;
    } else if (!quoted && c === 0x2c) commas++;
    else if (!quoted && c === 0x3b) semicolons++;
    content = true;
  }
  return semicolons > commas ? ";" : ",";
}

/** Line breaks between `from` and `to`: LF, CRLF (counted once) and a lone CR each end a line. */
function lineBreaksIn(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) count++;
    else if (c === CR && text.charCodeAt(i + 1) !== LF) count++;
  }
  return count;
}

/**
 * Every record of the text, blank lines skipped. The first record is the header. Throws CsvError for
 * an unclosed quote, text after a closing quote, or a quote inside an unquoted field.
 */
export function parseCsvRecords(text: string, separator: CsvSeparator): CsvRecord[] {
  const sep = separator.charCodeAt(0);
  const n = text.length;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    // A blank line is one empty field; it carries no data, so it is not a record.
    if (!(fields.length === 1 && fields[0] === "")) records.push({ line: recordLine, fields });
    fields = [];
  };
  for (;;) {
    let value: string;
    if (i < n && text.charCodeAt(i) === QUOTE) {
      const openedOn = line;
      let start = ++i;
      value = "";
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) {
          throw new CsvError(
            `Line ${openedOn}: a quoted field is not closed (a closing " is missing), so the rest of the file would be read as one value.`,
          );
        }
        line += lineBreaksIn(text, i, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += text.slice(start, q + 1); // "" inside quotes is one "
          i = start = q + 2;
          continue;
        }
        value += text.slice(start, q);
        i = q + 1;
        break;
      }
      if (i < n) {
        const c = text.charCodeAt(i);
        if (c !== sep && c !== LF && c !== CR) {
          throw new CsvError(
            `Line ${line}, field ${fields.length + 1}: there is text after the closing quote. A quote inside a quoted field must be doubled ("").`,
          );
        }
      }
    } else {
      let j = i;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (c === sep || c === LF || c === CR) break;
        if (c === QUOTE) {
          throw new CsvError(
            `Line ${line}, field ${fields.length + 1}: a quote (") inside a field that does not start with one. Put the whole field in quotes and double the quote ("").`,
          );
        }
      }
      value = text.slice(i, j);
      i = j;
    }
    fields.push(value);
    if (i >= n) {
      endRecord();
      break;
    }
    const c = text.charCodeAt(i);
    if (c === sep) {
      i++;
      continue;
    }
    i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
    endRecord();
    line++;
    recordLine = line;
    if (i >= n) break; // a final line break ends the last record; it does not start an empty one
  }
  return records;
}

/** The text as a table: separator detected, header split off, limits checked. */
export function parseCsv(text: string, options: { maxRows?: number } = {}): CsvTable {
  const maxRows = options.maxRows ?? CSV_MAX_ROWS;
  const separator = detectSeparator(text);
  const [head, ...records] = parseCsvRecords(text, separator);
  if (!head) throw new CsvError("The file is empty: it needs a header row with column names, then one row per credential.");
  if (records.length === 0) throw new CsvError("The file has a header row but no data rows.");
  if (records.length > maxRows) {
    throw new CsvError(
      `The file has ${formatCount(records.length)} data rows; at most ${formatCount(maxRows)} can be imported at once. Split it into several files.`,
    );
  }
  return { separator, header: head.fields.map((h) => h.trim()), records };
}

/** An uploaded file, from its bytes to a table, with every limit checked and named. */
export function readCsvUpload(bytes: Uint8Array, options: { maxBytes?: number; maxRows?: number } = {}): CsvTable {
  const maxBytes = options.maxBytes ?? CSV_MAX_BYTES;
  if (bytes.length === 0) throw new CsvError("The file is empty: it needs a header row with column names, then one row per credential.");
  if (bytes.length > maxBytes) {
    const size = megabytes(bytes.length) === megabytes(maxBytes) ? `just over ${megabytes(maxBytes)}` : megabytes(bytes.length);
    throw new CsvError(`The file is ${size} MB; at most ${megabytes(maxBytes)} MB can be imported at once. Split it into several files.`);
  }
  return parseCsv(decodeCsvBytes(bytes), options);
}

// Writing CSV (exports), the reader's counterpart: RFC 4180 quoting and CRLF line ends, with a byte
// order mark so spreadsheet programs read it as UTF-8.

/**
 * A cell a spreadsheet would run as a formula (it starts with = + - @, or a tab or carriage return
 * that some programs skip before one) gets a leading apostrophe: the cell shows as text, and a name
 * like `=HYPERLINK(…)` typed by someone else cannot act when the file is opened.
 */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function quoted(cell: string): string {
  return /[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The rows as CSV text: every text cell made spreadsheet-safe, numbers written as they are. */
export function formatCsv(rows: (string | number)[][]): string {
  const lines = rows.map((row) => row.map((cell) => (typeof cell === "number" ? String(cell) : quoted(spreadsheetSafe(cell)))).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
