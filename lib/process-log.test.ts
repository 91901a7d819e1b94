// What a console call turns into once routed to lib/log: never an error's message or stack.
import { describe, expect, it } from "vitest";
import { consoleEntry, consoleFields, safeText } from "./process-log";

class DriverError extends Error {
  code = "P2010";
  constructor() {
    super(`SELECT * FROM "User" WHERE email = 'ada@example.com' failed`);
    this.name = "DriverError";
  }
}

describe("consoleFields", () => {
  it("summarises an error by its class, code and Next's digest, and drops its message and stack", () => {
    const error = Object.assign(new DriverError(), { digest: "2841902384" });
    const fields = consoleFields([" ⨯", error]);
    expect(fields).toEqual({ text: "⨯", errorType: "DriverError", errorCode: "P2010", digest: "2841902384" });
    expect(JSON.stringify(fields)).not.toMatch(/ada@example.com|SELECT| at /);
  });

  it("keeps plain text to its first line, without colour codes", () => {
    expect(consoleFields(["\u001b[32m✓\u001b[39m Ready in 120ms\nmore detail"])).toEqual({ text: "✓ Ready in 120ms" });
    expect(consoleFields([""])).toEqual({});
    expect((consoleFields(["x".repeat(500)]).text as string).length).toBeLessThanOrEqual(201);
  });
});

describe("safeText", () => {
  it("keeps only the class of an error printed as text (its message could quote anything)", () => {
    expect(safeText(["TypeError: Cannot read properties of undefined (reading 'secret')\n    at f (file.js:1:1)"])).toBe("TypeError");
    expect(safeText([' ⨯ Error: Failed to find Server Action "abc"'])).toBe("⨯ Error");
    expect(safeText(["Request failed: RangeError: id 'ada@example.com' is out of range"])).toBe("Request failed: RangeError");
    expect(safeText(["Error handling upgrade request"])).toBe("Error handling upgrade request");
  });

  it("keeps only the tag of a Prisma log line, which quotes the database's messages", () => {
    expect(
      safeText([
        '\u001b[31mprisma:error\u001b[39m \nInvalid `prisma.user.findUnique()` invocation: password authentication failed for user "cis"',
      ]),
    ).toBe("prisma:error");
  });
});

describe("consoleEntry", () => {
  it("reports a request body the client never finished (Node's 'aborted' reset) at info, as the client's doing", () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    expect(consoleEntry("error", [" ⨯", aborted])).toEqual({
      level: "info",
      event: "request_abandoned",
      fields: { text: "⨯", errorType: "Error", errorCode: "ECONNRESET" },
    });
  });

  it("keeps other errors at their level, a connection reset by a server we called included", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(consoleEntry("error", [" ⨯", reset])).toMatchObject({ level: "error", event: "console" });
    expect(consoleEntry("error", [new Error("aborted")])).toMatchObject({ level: "error", event: "console" });
    expect(consoleEntry("info", [""])).toBeNull();
  });
});
