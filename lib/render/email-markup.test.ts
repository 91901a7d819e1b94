import { describe, expect, it } from "vitest";
import { emailMarkupProblems, linkAddressProblem, markupToPlainText, parseEmailMarkup, placeholderProblems } from "./email-markup";

describe("parseEmailMarkup", () => {
  it("reads paragraphs, line breaks, bold and links; everything else is text", () => {
    const { paragraphs, problems } = parseEmailMarkup(
      "Hello **[recipient.name]**,\r\nwell done.\n  \n\nSee [the course](https://example.edu/c?a=1&b=2) or <b>write</b> # to [us](mailto:hi@example.edu).",
    );
    expect(problems).toEqual([]);
    expect(paragraphs).toEqual([
      [
        { kind: "text", text: "Hello " },
        { kind: "bold", children: [{ kind: "text", text: "[recipient.name]" }] },
        { kind: "text", text: "," },
        { kind: "break" },
        { kind: "text", text: "well done." },
      ],
      [
        { kind: "text", text: "See " },
        { kind: "link", label: "the course", url: "https://example.edu/c?a=1&b=2" },
        { kind: "text", text: " or <b>write</b> # to " },
        { kind: "link", label: "us", url: "mailto:hi@example.edu" },
        { kind: "text", text: "." },
      ],
    ]);
  });

  it("keeps placeholders as text and allows them in link labels and after a link's scheme", () => {
    const { paragraphs, problems } = parseEmailMarkup("[Open [group.name]]([credential.url]) [x](https://e.example/?id=[credential.id])");
    expect(problems).toEqual([]);
    expect(paragraphs[0]![0]).toEqual({ kind: "link", label: "Open [group.name]", url: "[credential.url]" });
    expect(paragraphs[0]![2]).toEqual({ kind: "link", label: "x", url: "https://e.example/?id=[credential.id]" });
  });

  it.each([
    ["[click](javascript:alert(1))"],
    ["[click](JavaScript:alert)"],
    ["[click](data:text/html,hi)"],
    ["[click](vbscript:x)"],
    ["[click](//evil.example)"],
    ["[click](/relative)"],
    ["[click](https://)"],
    ["[click]([custom.link])"],
  ])("refuses the link %s and says which line", (source) => {
    const problems = emailMarkupProblems(`Hello\n\n${source}`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^line 3: the link address .* (is refused|is not a complete)/);
  });

  it("refuses unknown placeholders, naming them, and accepts every custom one", () => {
    expect(emailMarkupProblems("Hi [recipient.nam] [custom.grade] [foo.bar]")).toEqual([
      expect.stringMatching(/^unknown placeholder \[recipient\.nam\]: use one of \[recipient\.name\], /),
      expect.stringMatching(/^unknown placeholder \[foo\.bar\]/),
    ]);
    expect(placeholderProblems("[recipient.name] [credential.url] [custom.x-1]")).toEqual([]);
  });

  it("refuses bold left open, and keeps the marks as text in what it renders", () => {
    const { paragraphs, problems } = parseEmailMarkup("one\n\ntwo **three\nfour");
    expect(problems).toEqual(["line 3: bold text opened with ** is not closed in its paragraph"]);
    expect(markupToPlainText(paragraphs)).toBe("one\n\ntwo **three\nfour");
  });

  it("[1] and other brackets are words", () => {
    expect(parseEmailMarkup("Step [1] and [a b]").paragraphs).toEqual([[{ kind: "text", text: "Step [1] and [a b]" }]]);
  });
});

describe("markupToPlainText", () => {
  it("drops bold marks and writes links out after their labels", () => {
    const { paragraphs } = parseEmailMarkup(
      "**Well done**, [recipient.name]!\n\n[Your page]([credential.url]) · [https://e.example](https://e.example) · [Mail us](mailto:a@e.example)",
    );
    expect(markupToPlainText(paragraphs)).toBe(
      "Well done, [recipient.name]!\n\nYour page ([credential.url]) · https://e.example · Mail us (a@e.example)",
    );
  });
});

describe("linkAddressProblem", () => {
  it("accepts http, https and mailto, and the wallet link", () => {
    for (const ok of ["http://e.example", "HTTPS://e.example/a b", "mailto:a@e.example", "[credential.url]"])
      expect(linkAddressProblem(ok)).toBeNull();
  });
});
