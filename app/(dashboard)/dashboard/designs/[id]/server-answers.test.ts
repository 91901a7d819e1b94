import { describe, expect, it } from "vitest";
import { documentProblemsOf, elementsWithProblems, problemElementIndex, readPreviewAnswer, readWarning } from "./server-answers";

describe("reading the preview's answer", () => {
  it("shows a rendering with its warnings, the texts that overflow and the values shown", () => {
    const sample = { recipientName: "Maria Guadalupe Fernández de la Torre Villanueva", groupName: "Advanced Data Analysis" };
    const overflows = [{ index: 2, recipientName: "Александра Константиновна Рождественская" }];
    expect(
      readPreviewAnswer({
        status: "ok",
        result: { png: "data:image/png;base64,AA==", warnings: ["element 0: no font for ሰ"], overflows, sample },
      }),
    ).toEqual({
      kind: "rendered",
      src: "data:image/png;base64,AA==",
      warnings: ["element 0: no font for ሰ"],
      overflows,
      sample,
    });
  });

  it("puts field errors next to the fields", () => {
    const fieldErrors = { "elements[1].font.color": "must be a hex colour" };
    expect(readPreviewAnswer({ status: "error", message: "Please correct the highlighted fields.", fieldErrors })).toEqual({
      kind: "refused",
      problems: fieldErrors,
    });
  });

  it("asks again when the server is busy with other previews", () => {
    expect(
      readPreviewAnswer({ status: "error", message: "Too many previews at once; this one follows in a moment.", fieldErrors: {} }),
    ).toEqual({ kind: "busy" });
  });

  it("reports any other failure as it was said", () => {
    expect(readPreviewAnswer({ status: "error", message: "Design not found.", fieldErrors: {} })).toEqual({
      kind: "failed",
      message: "Design not found.",
    });
  });

  it("says nothing for an idle answer", () => {
    expect(readPreviewAnswer({ status: "idle" })).toBeNull();
  });
});

describe("a refused save's problems", () => {
  it("keeps the document's, with paths relative to the document", () => {
    expect(
      documentProblemsOf({
        name: "must not be empty",
        "document.elements[0].x": "must be at least 0",
        "document.canvas.size": "unknown size",
      }),
    ).toEqual({
      "elements[0].x": "must be at least 0",
      "canvas.size": "unknown size",
    });
    expect(documentProblemsOf({ name: "must not be empty" })).toEqual({});
  });
});

describe("elements with problems", () => {
  it("are the indexes named by the paths, once each", () => {
    expect([
      ...elementsWithProblems({
        "elements[2].x": "a",
        "elements[2].font.size": "b",
        "elements[10]": "c",
        "background.color": "d",
        recipientName: "e",
      }),
    ]).toEqual([2, 10]);
    expect(problemElementIndex("canvas.elements[3]")).toBeNull();
    expect(problemElementIndex("elements[7].text")).toBe(7);
  });
});

describe("the renderer's warnings", () => {
  it("name the element they are about by index", () => {
    expect(readWarning("element 4: text does not fit its box and was shortened")).toEqual({
      index: 4,
      message: "text does not fit its box and was shortened",
    });
    expect(readWarning("the background image is missing")).toBeNull();
  });
});
