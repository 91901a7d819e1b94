import { describe, expect, it } from "vitest";
import { customTagsInDocument, customTagsInTexts } from "./service";

describe("custom attribute tags in templates", () => {
  it("finds each custom.<tag> placeholder once, ignoring built-in ones and bracketed text that is not a placeholder", () => {
    expect(
      customTagsInTexts([
        "Hi [recipient.name], grade [custom.grade]",
        null,
        "[custom.grade] [custom.Score_2-b] [1] [custom.] [custom.a.b]",
        undefined,
      ]),
    ).toEqual(["custom.grade", "custom.Score_2-b"]);
  });

  it("reads only text elements of a design document, and tolerates a document without elements", () => {
    const doc = {
      elements: [
        { type: "text", text: "[custom.mentor]" },
        { type: "qr" },
        { type: "image", asset: "custom.logo", text: "[custom.not_text]" },
      ],
    };
    expect(customTagsInDocument(doc)).toEqual(["custom.mentor"]);
    expect(customTagsInDocument({})).toEqual([]);
    expect(customTagsInDocument(null)).toEqual([]);
  });
});
