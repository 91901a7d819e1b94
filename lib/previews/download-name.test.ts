import { describe, expect, it } from "vitest";
import { attachmentDisposition, safeDownloadName } from "./download-name";

describe("safeDownloadName", () => {
  it("keeps a plain name and adds the format's extension once", () => {
    expect(safeDownloadName("Data Analysis - Ada Lovelace", "pdf")).toBe("Data Analysis - Ada Lovelace.pdf");
    expect(safeDownloadName("Ada.PNG", "png")).toBe("Ada.png");
    expect(safeDownloadName("Ada.png", "pdf")).toBe("Ada.png.pdf");
  });

  it("always ends in the served format, whatever the name claims", () => {
    expect(safeDownloadName("setup.exe", "png")).toBe("setup.exe.png");
    expect(safeDownloadName("run.bat ", "pdf")).toBe("run.bat.pdf");
    // Trailing dots and spaces would be dropped by Windows, leaving ".exe" last.
    expect(safeDownloadName("x.exe. . .", "png")).toBe("x.exe.png");
  });

  it("removes bidirectional overrides, isolates and marks that would make the name read as another", () => {
    for (const bidi of [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200e",
      "\u200f",
      "\u061c",
    ]) {
      const name = safeDownloadName(`invoice${bidi}gnp.exe`, "png");
      expect(name).toBe("invoice gnp.exe.png");
    }
  });

  it("removes control characters, quotes, path separators and reserved characters", () => {
    expect(safeDownloadName('a\u0000b\nc\r\td\u007f\u0085"e\\f/g:h*i?j<k>l|m', "pdf")).toBe("a b c d e f g h i j k l m.pdf");
    expect(safeDownloadName("../../etc/passwd", "png")).toBe("etc passwd.png");
    expect(safeDownloadName(".hidden", "png")).toBe("hidden.png");
  });

  it("falls back to a name when nothing is left, and shortens long names without cutting a character in half", () => {
    expect(safeDownloadName("\u202e/\\..", "png")).toBe("credential.png");
    expect(safeDownloadName("", "pdf")).toBe("credential.pdf");
    const long = safeDownloadName("😀".repeat(400), "png");
    expect([...long.slice(0, -4)]).toHaveLength(150);
    expect(long.endsWith("😀.png")).toBe(true);
  });

  it("keeps letters of every script", () => {
    expect(safeDownloadName("Zoë Ñúñez - 証明書", "pdf")).toBe("Zoë Ñúñez - 証明書.pdf");
  });
});

describe("attachmentDisposition", () => {
  it("gives an ASCII name alone when the name is ASCII", () => {
    expect(attachmentDisposition("Ada Lovelace.pdf")).toBe('attachment; filename="Ada Lovelace.pdf"');
  });

  it("adds the exact name as UTF-8 filename* when it is not ASCII, with an ASCII fallback", () => {
    expect(attachmentDisposition("Zoë 証明書.png")).toBe(
      `attachment; filename="Zoe ___.png"; filename*=UTF-8''Zo%C3%AB%20%E8%A8%BC%E6%98%8E%E6%9B%B8.png`,
    );
  });

  it("never lets the fallback carry a quote, a backslash, a slash or a percent sign", () => {
    // Fullwidth quotation mark, small reverse solidus and fullwidth solidus decompose to ASCII ones.
    const header = attachmentDisposition(safeDownloadName("a\uff02b\ufe68c\uff0fd 100%", "png"));
    const fallback = /filename="([^"]*)"/.exec(header)![1]!;
    expect(fallback).toBe("a_b_c_d 100_.png");
    expect(header).toMatch(/^attachment; filename="[^"\\]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]+$/);
  });

  it("escapes the characters RFC 5987 leaves out of attr-char", () => {
    expect(attachmentDisposition("it's (é)*.png")).toContain("filename*=UTF-8''it%27s%20%28%C3%A9%29%2A.png");
  });
});
